"""What methods return (data, Page, cookie-surface bodies, downloads, None) and how requests are shaped."""

from __future__ import annotations

import uuid

from scripted_server import Reply, v1_data

import berth


def test_the_data_of_a_v1_answer_is_returned_and_the_token_is_sent(server, client):
    server.reply(v1_data({"versions": ["8.2", "8.3"]}))
    assert client.sites.list_php_versions() == {"versions": ["8.2", "8.3"]}
    request = server.requests[0]
    assert (request.method, request.path) == ("GET", "/v1/sites/php-versions")
    assert request.headers["authorization"] == "Bearer berth_pat_test"


def test_path_parameters_are_escaped_and_unset_query_parameters_left_out(server, client):
    server.reply(v1_data({}), Reply(200, {"data": [], "pagination": {"page": 1, "page_size": 20, "total": 0, "total_pages": 0}, "meta": {}}))
    client.environments.get(id="1/2", env="staging")
    client.activity.list(action="sites.create", since="2026-11-01", until=None)
    assert server.requests[0].path == "/v1/sites/1%2F2/environments/staging"
    assert server.requests[1].query == {"action": "sites.create", "since": "2026-11-01"}


def test_a_cookie_surface_body_is_returned_as_is(server, client):
    server.reply(Reply(200, {"pre_auth_token": "p" * 20, "teams": []}))
    assert client.browser_auth.login(body={"email": "a@example.com", "password": "pw"}) == {"pre_auth_token": "p" * 20, "teams": []}


def test_the_csrf_header_is_taken_from_the_svc_csrf_cookie(server, client):
    client.cookies.set("svc_csrf", "csrf-123")
    server.reply(Reply(200, {"message": "bye"}))
    client.browser_auth.logout()
    assert server.requests[0].headers["x-csrf-token"] == "csrf-123"


def test_204_is_none(server, client):
    server.reply(Reply(204))
    assert client.webhooks.delete(webhook="3") is None
    assert uuid.UUID(server.requests[0].headers["idempotency-key"])


def test_a_binary_answer_is_streamed_in_chunks_and_saved(server, client, tmp_path):
    archive = bytes(range(256)) * 1000
    server.reply(Reply(200, archive, {"Content-Type": "application/zstd", "Content-Disposition": 'attachment; filename="site-1.tar.zst"'}))
    with client.backups.download(id="1", env="production", backup="7") as download:
        assert download.filename == "site-1.tar.zst" and download.content_length == len(archive)
        chunks = list(download.iter_bytes(chunk_size=4096))
    assert b"".join(chunks) == archive and len(chunks) > 1
    server.reply(Reply(200, b"%PDF-1.7 ...", {"Content-Type": "application/pdf"}))
    with client.invoices.download_pdf(id="5") as download:
        saved = download.save(tmp_path / "invoice.pdf")
    assert saved.read_bytes() == b"%PDF-1.7 ..."


def test_a_binary_body_is_sent_with_its_media_type(server, client):
    server.reply(v1_data({"id": "u1"}, 201))
    client.uploads.create(filename="site.zip", body=b"PK\x03\x04zip", content_type="application/zip")
    assert server.requests[0].headers["content-type"] == "application/zip" and server.requests[0].body == b"PK\x03\x04zip"
    assert server.requests[0].query == {"filename": "site.zip"}


def test_defaults_come_from_berth_url_and_berth_token(server, monkeypatch):
    monkeypatch.setenv("BERTH_URL", server.url)
    monkeypatch.setenv("BERTH_TOKEN", "berth_pat_env")
    server.reply(v1_data({"id": 1}))
    with berth.Client() as from_env:
        from_env.me.get()
    assert server.requests[0].headers["authorization"] == "Bearer berth_pat_env"


def test_no_address_at_all_names_the_variable(monkeypatch):
    monkeypatch.delenv("BERTH_URL", raising=False)
    try:
        berth.Client()
    except ValueError as error:
        assert "BERTH_URL" in str(error)
    else:
        raise AssertionError("a client without an address was made")
