"""The command line as users of typer/click tools expect it (issue 27): ``--version``, shell
completion, global options before or after the command, every ``error:`` line in the log
file, plain help with an example per command, a quiet end on a closed pipe, one line on
Ctrl-C, plain words for a bad number.

Each is run as a Dealer or cron runs it: a real process (the installed ``nomicpoker`` script
where the entry point matters), a real shell for completion, a real pipe and a real signal."""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kits.tables.cli import cli, one_line

SCRIPT = Path(sys.executable).with_name("nomicpoker")


def script(*args: str, env: dict | None = None, **kw) -> subprocess.CompletedProcess:
    """The console script itself (the entry point cron runs)."""
    base = {k: v for k, v in os.environ.items() if not k.startswith("NOMICPOKER_")}
    return subprocess.run([str(SCRIPT), *args], capture_output=True, text=True, timeout=120,
                          env={**base, **(env or {})}, **kw)


def test_version_is_an_option_as_well_as_a_command():
    from nomicpoker import __version__

    for args in (["--version"], ["version"]):
        res = script(*args)
        assert (res.returncode, res.stdout, res.stderr) == (0, f"nomicpoker {__version__}\n", ""), res


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_bash_completion_completes_a_command_and_an_option(tmp_path):
    """typer's own completion script, sourced by a real bash, completes ``pol`` to ``poll``
    and ``poll --qu`` to ``--quiet``.

    The shell is named, not detected: typer asks shellingham, which walks the process's
    ancestors for a shell, and a run whose ancestors hold none (seen once in a whole-suite run:
    "Shell  not supported.") would fail for a reason that is not ours. With typer's own
    ``_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION`` the option takes the shell as its value."""
    shown = script("--show-completion", "bash",
                   env={"SHELL": "/bin/bash", "_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"})
    assert shown.returncode == 0 and "complete" in shown.stdout, shown.stdout + shown.stderr
    (tmp_path / "completion.bash").write_text(shown.stdout)
    probe = (f'source {tmp_path / "completion.bash"}\n'
             'fn=$(complete -p nomicpoker | sed -E "s/.*-F ([^ ]+) .*/\\1/")\n'
             'COMP_WORDS=(nomicpoker pol); COMP_CWORD=1; COMP_LINE="nomicpoker pol"; COMP_POINT=${#COMP_LINE}\n'
             '$fn nomicpoker pol nomicpoker; echo "A:${COMPREPLY[*]}"\n'
             'COMP_WORDS=(nomicpoker poll --qu); COMP_CWORD=2; COMP_LINE="nomicpoker poll --qu"; COMP_POINT=${#COMP_LINE}\n'
             '$fn nomicpoker --qu poll; echo "B:${COMPREPLY[*]}"\n')
    env = {k: v for k, v in os.environ.items() if not k.startswith("NOMICPOKER_")}
    env["PATH"] = f"{SCRIPT.parent}{os.pathsep}{env.get('PATH', '')}"
    out = subprocess.run(["bash", "--norc", "--noprofile", "-c", probe], capture_output=True, text=True,
                         timeout=120, env=env)
    assert re.search(r"^A:poll$", out.stdout, re.M), out.stdout + out.stderr
    assert re.search(r"^B:.*--quiet", out.stdout, re.M), out.stdout + out.stderr


@pytest.mark.parametrize("where", ["before", "after"])
def test_state_and_db_are_accepted_before_or_after_the_command(tmp_path, where):
    st = tmp_path / "st2"
    opts = ["--state", str(st)]
    args = [*opts, "init"] if where == "before" else ["init", *opts]
    res = cli(*args)
    assert res.returncode == 0 and (st / "ledger.db").exists(), res.stdout + res.stderr
    db = tmp_path / "other.db"
    opts = ["--state", str(st), "--db", f"sqlite:///{db}"]
    args = [*opts, "table", "create", "--name", "T", "--players", "a,b"] if where == "before" else \
        ["table", "create", "--name", "T", "--players", "a,b", *opts]
    assert cli(*args).returncode == 0
    listed = cli("table", "list", "--state", str(st), "--db", f"sqlite:///{db}")
    assert listed.stdout.startswith("T\t"), listed.stdout + listed.stderr


@pytest.mark.parametrize("where", ["before", "after"])
def test_log_options_are_accepted_before_or_after_the_command(tmp_path, where):
    st = tmp_path / "state"
    assert cli("init", "--state", str(st)).returncode == 0
    log = tmp_path / "poll.log"
    opts = ["--log-level", "debug", "--log-format", "json", "--log-file", str(log)]
    args = [*opts, "poll", "--state", str(st), "--site", "off"] if where == "before" else \
        ["poll", "--state", str(st), "--site", "off", *opts]
    res = cli(*args)
    assert res.returncode == 0, res.stdout + res.stderr
    import json

    lines = [json.loads(x) for x in log.read_text().splitlines()]
    assert lines and lines[-1]["message"] == "no active tables: nothing to do"


@pytest.mark.parametrize("args", [
    ["poll", "--quiet", "--state", "{wrong}", "--log-file", "{log}"],          # the README's cron line shape
    ["--log-file", "{log}", "poll", "--quiet", "--state", "{wrong}"],
    ["--quiet", "--state", "{wrong}", "poll", "--log-file", "{log}"],
    ["ledger", "--table", "T", "--state", "{wrong}", "--log-file", "{log}"],
    ["table", "create", "--name", "T", "--players", "a,b", "--money", "abc", "--log-file", "{log}"],
    ["--log-file", "{log}", "poll", "--no-such-option"],
], ids=["cron-line", "log-first", "state-first", "ledger", "bad-number", "unknown-option"])
def test_every_error_line_reaches_the_log_file_whatever_the_positions(tmp_path, args):
    log = tmp_path / "x.log"
    args = [a.format(wrong=tmp_path / "wrong", log=log) for a in args]
    res = cli(*args)
    assert res.returncode != 0 and res.stdout == "", res
    (err,) = res.stderr.splitlines()
    assert err.startswith("error: ")
    kept = log.read_text("utf-8")
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ ERROR nomicpoker\.cli: " + re.escape(err) + "\n", kept), kept


def all_commands() -> list[list[str]]:
    """Every command path of the app, from typer's own command tree."""
    import typer

    from nomicpoker.cli import app

    out: list[list[str]] = []

    def walk(cmd, path: list[str]) -> None:
        if hasattr(cmd, "list_commands"):  # a group (the root loads its commands when listed)
            for name in cmd.list_commands(ctx):
                walk(cmd.get_command(ctx, name), path + [name])
        else:
            out.append(path)

    root = typer.main.get_command(app)
    ctx = typer.Context(root)
    walk(root, [])
    return out


def test_help_is_plain_with_an_example_for_every_command():
    res = cli("--help")
    assert res.returncode == 0 and "<bool>" not in res.stdout and "╭" not in res.stdout, res.stdout
    assert "--version" in res.stdout and "--state" in res.stdout
    commands = all_commands()
    assert ["poll"] in commands and ["table", "create"] in commands
    from typer.testing import CliRunner

    from nomicpoker.cli import app

    missing = []
    for path in commands:
        text = CliRunner().invoke(app, [*path, "--help"], prog_name="nomicpoker").output
        assert "<bool>" not in text and "╭" not in text, (path, text)
        if not re.search(rf"^\s*nomicpoker {re.escape(' '.join(path))}\b", text, re.M):
            missing.append(" ".join(path))
    assert not missing, f"no example in the help of: {missing}"


def closed_stdout(*args: str) -> subprocess.CompletedProcess:
    """Run with stdout a pipe whose reading end is already closed (``| head`` that has quit)."""
    r, w = os.pipe()
    os.close(r)
    try:
        base = {k: v for k, v in os.environ.items() if not k.startswith("NOMICPOKER_")}
        return subprocess.run([str(SCRIPT), *args], stdout=w, stderr=subprocess.PIPE, text=True,
                              timeout=120, env=base)
    finally:
        os.close(w)


def test_a_closed_pipe_ends_quietly_with_the_code_git_gives(tmp_path):
    """``nomicpoker ledger ... | head -3``: no "error: Broken pipe", exit 141 (128 + SIGPIPE),
    as git, grep and cat end when the reader has gone."""
    st = tmp_path / "d"
    assert cli("demo", "--state", str(st)).returncode == 0
    for args in (["ledger", "--table", "demo", "--state", str(st), "--log"],
                 ["rules", "show", "blognomic-2008"], ["--help"]):
        res = closed_stdout(*args)
        assert (res.returncode, res.stderr) == (141, ""), (args, res.returncode, res.stderr)


def test_ctrl_c_prints_one_line_and_exits_130(tmp_path):
    """A forum that never answers: Ctrl-C (SIGINT) during ``forum check`` ends it with one
    line on stderr and exit 130, the shell's code for an interrupted command."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    # generous: on a loaded 2-core machine a child's start alone has taken most of a minute
    listener.settimeout(180)
    port = listener.getsockname()[1]
    config = tmp_path / "forum.toml"
    config.write_text(f'[forum]\nkind = "blognomic"\nbase_url = "http://127.0.0.1:{port}/"\ntimeout = 300\n')
    base = {k: v for k, v in os.environ.items() if not k.startswith("NOMICPOKER_")}
    proc = subprocess.Popen([str(SCRIPT), "forum", "check", "--config", str(config), "--state", str(tmp_path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=base)
    try:
        conn, _ = listener.accept()  # the request is on its way: the process waits for an answer
        time.sleep(0.3)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=180)
        conn.close()
    finally:
        proc.kill()
        listener.close()
    assert proc.returncode == 130, (proc.returncode, out, err)
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1 and "interrupted" in err, err


@pytest.mark.parametrize("args, needle", [
    (["table", "create", "--name", "T", "--players", "a,b", "--money", "abc"], "Invalid value for '--money': 'abc' is not a whole number"),
    (["table", "create", "--name", "T", "--players", "a,b", "--money", "-5"], "Invalid value for '--money': '-5' is not a whole number"),
    (["hand", "start", "--table", "T", "--ante", "1.5"], "Invalid value for '--ante': '1.5' is not a whole number"),
    (["phh", "replay", "x.phh", "--limit", "0"], "Invalid value for '--limit': '0' is not a whole number of at least 1"),
])
def test_a_bad_number_is_answered_in_plain_words(tmp_path, args, needle):
    res = cli(*args, "--state", str(tmp_path / "st")) if args[0] != "phh" else cli(*args)
    out = one_line(res, needle, code=2)
    assert "Input should be" not in out and "valid integer" not in out
