"""`client.paginate` walks every page of a list with ?page=&page_size=."""

from __future__ import annotations

import math

from scripted_server import Reply

import berth

SITES = [{"id": number, "name": f"site {number}"} for number in range(1, 6)]


def serve_sites(request):
    page, page_size = int(request.query.get("page", 1)), int(request.query.get("page_size", 20))
    data = SITES[(page - 1) * page_size : page * page_size]
    pagination = {"page": page, "page_size": page_size, "total": len(SITES), "total_pages": math.ceil(len(SITES) / page_size)}
    return Reply(200, {"data": data, "pagination": pagination, "meta": {"timestamp": "t", "request_id": "r"}})


def test_a_list_answers_a_page(server, client):
    server.handle(serve_sites)
    page = client.sites.list(page="2", page_size="2")
    assert isinstance(page, berth.Page)
    assert page.data == SITES[2:4] and page.pagination == {"page": 2, "page_size": 2, "total": 5, "total_pages": 3}
    assert page.has_next_page and list(page) == SITES[2:4]


def test_paginate_yields_every_item_of_every_page_once(server, client):
    server.handle(serve_sites)
    assert list(client.paginate(client.sites.list, page_size=2)) == SITES
    assert [(r.query["page"], r.query["page_size"]) for r in server.requests] == [("1", "2"), ("2", "2"), ("3", "2")]


def test_paginate_passes_the_other_arguments_and_defaults_to_100_a_page(server, client):
    server.handle(serve_sites)
    list(client.paginate(client.backups.list, id="4", env="staging"))
    assert server.requests[0].path == "/v1/sites/4/environments/staging/backups"
    assert server.requests[0].query == {"page": "1", "page_size": "100"}


def test_an_empty_list_is_one_request(server, client):
    server.reply(Reply(200, {"data": [], "pagination": {"page": 1, "page_size": 100, "total": 0, "total_pages": 0}, "meta": {}}))
    assert list(client.paginate(client.sites.list)) == []
    assert len(server.requests) == 1
