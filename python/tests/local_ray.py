"""Ray nodes on this machine for the tests and the benchmarks (`ray start --block` processes).

Ray's own start-up has two fixed deadlines that a loaded 2-core machine misses (measured here at
load average 9: a plain ``ray.init(num_cpus=2)`` failed): the raylet waits 15 s for each of its
agents (Python processes that import much of Ray) to write its port to a file, then aborts
("Timed out waiting for file .../metrics_agent_port_..."), and the driver gives the raylet 30 s
to register. Neither is a setting. So a node is started here with every port chosen beforehand
(the raylet then has no port file to wait for), without the processes a test does not need (no
dashboard, autoscaler monitor, log monitor or usage stats), with ``--num-cpus`` as asked; it is
ready when ``ray start`` says so, and a start that fails anyway is tried again (its processes
ended first). Nodes run with token authentication (``RAY_AUTH_MODE=token``, as the driver must
too, with a token file of this module's: a new machine has none) and are stopped through the ``ray start --block`` process, which ends the processes it
started (never ``ray stop``, which would end every Ray process of the user on the machine).
"""

from __future__ import annotations

import atexit
import os
import pathlib
import queue
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass, field



def _token_file() -> str:
    """A token of this process's own for token authentication: ``ray start`` in token mode never
    makes one (``ensure_token_if_auth_enabled(..., create_token_if_missing=False)``) and a fresh
    machine has no ``~/.ray/auth_token`` (only ``ray.init()`` writes one), so without this the
    nodes do not start on a new machine. Kept in a private temporary directory, never in the
    user's home; 256 random bits as Ray's own generator makes them."""
    d = tempfile.mkdtemp(prefix="mcts-ray-token-")
    path = os.path.join(d, "auth_token")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(secrets.token_hex(32))
    atexit.register(shutil.rmtree, d, True)
    return path


#: What every process of a local Ray instance (nodes and driver) needs in its environment: token
#: authentication with one token for all of them (``RAY_AUTH_TOKEN_PATH``, a file of this
#: module's, unless the environment already names a token). A driver reads its authentication
#: mode when it imports Ray: this module sets it on import, so import it before ``ray``.
RAY_ENV = {"RAY_AUTH_MODE": "token", "RAY_USAGE_STATS_ENABLED": "0"}
if not (os.environ.get("RAY_AUTH_TOKEN") or os.environ.get("RAY_AUTH_TOKEN_PATH")):
    RAY_ENV["RAY_AUTH_TOKEN_PATH"] = _token_file()
os.environ.update(RAY_ENV)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _ray_executable() -> str:
    return str(pathlib.Path(sys.executable).with_name("ray"))


@dataclass
class RayNode:
    """A running ``ray start --block`` process and what it printed."""

    process: subprocess.Popen[str]
    #: The head's GCS address (``127.0.0.1:PORT``) that drivers and other nodes connect to.
    address: str
    temp_dir: str
    output: list[str] = field(default_factory=list)

    def stop(self) -> None:
        """Ends the node: SIGTERM to ``ray start --block``, which stops the processes it started."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=120)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def __enter__(self) -> RayNode:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop()


def _start_once(cpus: int, temp_dir: str, head_address: str | None, ready_timeout_s: float) -> RayNode:
    gcs = _free_port()
    ports = {
        "node-manager-port": _free_port(),
        "object-manager-port": _free_port(),
        "dashboard-agent-grpc-port": _free_port(),
        "dashboard-agent-listen-port": _free_port(),
        "runtime-env-agent-port": _free_port(),
        "metrics-export-port": _free_port(),
    }
    args = [_ray_executable(), "start", "--block", "--node-ip-address", "127.0.0.1", "--num-cpus", str(cpus), "--temp-dir", temp_dir]
    args += ["--include-log-monitor", "false", "--disable-usage-stats"]
    if head_address is None:
        args += ["--head", f"--port={gcs}", "--include-dashboard", "false", "--no-monitor"]
        address = f"127.0.0.1:{gcs}"
    else:
        args += [f"--address={head_address}"]
        address = head_address
    args += [f"--{k}={v}" for k, v in ports.items()]
    proc = subprocess.Popen(
        args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, text=True, env={**os.environ, **RAY_ENV}
    )
    node = RayNode(proc, address, temp_dir)
    lines: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line.rstrip("\n"))
        lines.put(None)

    threading.Thread(target=read, name="ray-start-output", daemon=True).start()
    while True:
        try:
            line = lines.get(timeout=ready_timeout_s)
        except queue.Empty:
            node.stop()
            raise RuntimeError(f"ray start did not say it started in {ready_timeout_s:.0f} s; its last lines: {node.output[-5:]}") from None
        if line is None:
            node.stop()
            raise RuntimeError(f"ray start exited ({proc.returncode}): {' | '.join(node.output[-8:])}")
        node.output.append(line)
        if "Ray runtime started" in line:
            # Keep draining its output so the pipe never fills.
            return node


def start_node(*, cpus: int, temp_dir: str | os.PathLike[str], head_address: str | None = None, attempts: int = 3, ready_timeout_s: float = 600) -> RayNode:
    """Starts a Ray head (``head_address`` None) or a node joining ``head_address``, with
    ``cpus`` CPUs and its files under ``temp_dir`` (keep it short: Ray's socket paths must fit
    in 107 bytes). Tries ``attempts`` times; raises RuntimeError with Ray's words if none started."""
    errors = []
    for _ in range(attempts):
        try:
            return _start_once(cpus, os.fspath(temp_dir), head_address, ready_timeout_s)
        except RuntimeError as e:
            errors.append(str(e))
    raise RuntimeError(f"no Ray node started in {attempts} tries: {errors[-1]}")


def connect(ray, address: str) -> None:  # noqa: ANN001 - the ray module, imported by the caller
    """``ray.init(address)`` as a driver of the local nodes (this module imported before ``ray``,
    so that the driver uses their authentication mode)."""
    ray.init(address=address, log_to_driver=False)
