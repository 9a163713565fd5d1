"""A vmtui service for Python tests, with the standard library only.

`vmtui_service()` starts `vmtui serve --port 0 --ready-json` as a child process, reads the one JSON
line it prints once it answers ({"base_url", "beta_url", "token", "restricted_token", "pid"}), and
stops it with SIGTERM. Under pytest, the `vmtui` fixture gives every test of the session that line;
`python3 -m unittest` runs the TestCase below. VMTUI_COMMAND overrides how vmtui is run (default:
the project's own, through npx).
"""

import contextlib
import json
import os
import selectors
import shlex
import signal
import subprocess
import unittest
import urllib.error
import urllib.request

COMMAND = shlex.split(os.environ.get("VMTUI_COMMAND", "npx --no-install vmtui"))
READY_TIMEOUT_S = 60


@contextlib.contextmanager
def vmtui_service(seed="empty", speed="instant"):
    args = [*COMMAND, "serve", "--port", "0", "--data", ":memory:", "--seed", seed, "--speed", speed, "--ready-json"]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, text=True)
    ready = None
    try:
        with selectors.DefaultSelector() as sel:
            sel.register(proc.stdout, selectors.EVENT_READ)
            if not sel.select(READY_TIMEOUT_S):
                raise RuntimeError(f"vmtui serve was not ready within {READY_TIMEOUT_S} s")
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError(f"vmtui serve exited with {proc.wait()} before it was ready")
        ready = json.loads(line)
        yield ready
    finally:
        # The pid is the service's own: through npx, proc is npm, which would not pass the signal on.
        if ready is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(ready["pid"], signal.SIGTERM)
        else:
            proc.terminate()
        proc.wait(timeout=30)


def call(service, method, path, body=None, token=None):
    """One API request: (status, parsed JSON body)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(service["base_url"] + path, data=data, method=method)
    request.add_header("Authorization", f"Bearer {token or service['token']}")
    request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


try:
    import pytest
except ImportError:
    pytest = None

if pytest is not None:

    @pytest.fixture(scope="session")
    def vmtui():
        with vmtui_service() as service:
            yield service

    def test_tags_with_the_fixture(vmtui):
        status, tag = call(vmtui, "POST", "/tags", {"label": "from-pytest"})
        assert status == 200 and tag["label"] == "from-pytest"


class VmtuiServiceTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls._context = vmtui_service()
        cls.service = cls._context.__enter__()

    @classmethod
    def tearDownClass(cls):
        cls._context.__exit__(None, None, None)

    def test_creates_an_instance(self):
        status, vm = call(self.service, "POST", "/vm/instances", {"region": "us-east", "type": "g6-nanode-1", "label": "py-1"})
        self.assertEqual(status, 200)
        self.assertEqual(call(self.service, "GET", f"/vm/instances/{vm['id']}")[1]["label"], "py-1")

    def test_a_bad_request_names_the_field(self):
        status, body = call(self.service, "POST", "/vm/instances", {"region": "nowhere", "type": "g6-nanode-1"})
        self.assertEqual(status, 400)
        self.assertEqual(body["errors"][0]["field"], "region")

    def test_the_restricted_user_sees_no_instances(self):
        status, page = call(self.service, "GET", "/vm/instances", token=self.service["restricted_token"])
        self.assertEqual((status, page["results"]), (200, 0))


if __name__ == "__main__":
    unittest.main()
