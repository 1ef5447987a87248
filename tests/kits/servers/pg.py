"""A throwaway PostgreSQL server on loopback for the ``postgres`` tests.

WHY the tests start it themselves: CI installs PostgreSQL from Debian's packages
(``scripts/ci_services.sh``) but starts no service; a server owned by the test session, in a
temporary directory, on a free port of 127.0.0.1, with ``fsync`` off, is the same on a
developer's machine and in CI and leaves nothing behind. PostgreSQL refuses to run as root,
so when the tests run as root the cluster belongs to the unprivileged ``postgres`` account
the Debian package creates. Without the binaries the tests skip and say why.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest

SKIP_HINT = "install them with scripts/ci_services.sh (Debian: apt-get install postgresql)"


def _binaries() -> tuple[str, str] | None:
    found = [shutil.which("initdb"), shutil.which("pg_ctl")]
    if all(found):
        return found[0], found[1]  # type: ignore[return-value]
    for bindir in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(p.split("/")[-2]),
                         reverse=True):
        if os.access(f"{bindir}/initdb", os.X_OK) and os.access(f"{bindir}/pg_ctl", os.X_OK):
            return f"{bindir}/initdb", f"{bindir}/pg_ctl"
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class PgServer:
    host: str
    port: int
    admin: str  # the superuser role

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://{self.admin}@{self.host}:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh, empty database's SQLAlchemy URL."""
        import psycopg

        name = "t_" + uuid.uuid4().hex[:12]
        with psycopg.connect(host=self.host, port=self.port, user=self.admin, dbname="postgres",
                             autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


def start_server():  # type: ignore[no-untyped-def]
    """Yield a running :class:`PgServer`, or skip with the reason."""
    bins = _binaries()
    if bins is None:
        pytest.skip(f"PostgreSQL binaries (initdb, pg_ctl) not found: {SKIP_HINT}")
    try:
        import psycopg  # noqa: F401
    except ImportError:
        pytest.skip("the psycopg driver is not installed: pip install -e '.[test]'")
    initdb, pg_ctl = bins
    user = None
    if os.geteuid() == 0:
        try:
            user = pwd.getpwnam("postgres")
        except KeyError:
            pytest.skip("running as root and there is no unprivileged 'postgres' account to own "
                        f"a test cluster: {SKIP_HINT}")
    base = Path(tempfile.mkdtemp(prefix="nomicpoker-pg-"))
    data, sock = base / "data", base / "sock"
    sock.mkdir()
    run_as: dict = {}
    if user is not None:
        os.chown(base, user.pw_uid, user.pw_gid)
        os.chown(sock, user.pw_uid, user.pw_gid)
        run_as = {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": []}
    port = _free_port()
    env = {**os.environ, "LC_ALL": "C", "LANG": "C"}
    try:
        subprocess.run([initdb, "-D", str(data), "-A", "trust", "-U", "postgres", "-E", "UTF8",
                        "--no-sync"], check=True, capture_output=True, env=env, cwd=base, **run_as)
        opts = f"-h 127.0.0.1 -p {port} -k {sock} -F -c max_connections=60"
        subprocess.run([pg_ctl, "-D", str(data), "-o", opts, "-l", str(base / "log"), "-w", "-t", "60",
                        "start"], check=True, capture_output=True, env=env, cwd=base, **run_as)
    except subprocess.CalledProcessError as exc:
        log = (base / "log").read_text() if (base / "log").exists() else ""
        shutil.rmtree(base, ignore_errors=True)
        raise RuntimeError(f"could not start a test PostgreSQL: {exc.stderr!r} {log}") from exc
    try:
        yield PgServer("127.0.0.1", port, "postgres")
    finally:
        subprocess.run([pg_ctl, "-D", str(data), "-m", "immediate", "-w", "stop"], capture_output=True,
                       env=env, cwd=base, **run_as)
        shutil.rmtree(base, ignore_errors=True)
