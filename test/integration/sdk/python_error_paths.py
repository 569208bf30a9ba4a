"""The errors a script meets, through the Python SDK against a live Berth (live-scenarios.test.ts runs it).

Prints one line per check; exits non-zero at the first surprise.
"""

import os
from concurrent.futures import ThreadPoolExecutor

import berth

client = berth.Client(os.environ["BERTH_URL"], token=os.environ["BERTH_TOKEN"])

try:
    client.sites.get(id=int(os.environ["OTHER_TEAMS_SITE"]))
    raise SystemExit("another team's site was answered")
except berth.NotFoundError as error:
    assert error.request_id, "no request id on the error"
    print(f"{error.status} {error.code} request {error.request_id}")

try:
    client.sites.create(body={"name": "", "php_version": "x", "wordpress": {"title": "t", "admin_user": "a", "admin_email": "a@example.test"}})
    raise SystemExit("an invalid site was accepted")
except berth.ValidationError as error:
    print(f"{error.status} {error.code} fields {' '.join(field['field'] for field in error.fields)}")

burst = int(os.environ["BURST"])
with ThreadPoolExecutor(max_workers=burst) as pool:
    answers = list(pool.map(lambda _: client.sites.list_php_versions(), range(burst)))
assert all(answer["versions"] for answer in answers), answers
print(f"burst of {burst} answered")
