"""The installable package: ``python -m build`` gives an sdist and a wheel that work installed.

The wheel is installed (not editable) into a fresh virtual environment outside the repository;
numpy, numba and the other dependencies are reused from the test's own environment through a
``.pth`` line (as ``--system-site-packages`` would, without a network install), while the
package itself comes from the wheel. The installed package is then made read-only, as in a
system site-packages, and the command line runs from it: numba writes its cache where numba
documents, ``NUMBA_CACHE_DIR``, never beside the installed modules.
"""

from __future__ import annotations

import json
import os
import re
import socket
import stat
import subprocess
import sys
import sysconfig
import tarfile
import time
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("build", reason="the build package (dev extra) is not installed")
pytest.importorskip("hatchling", reason="hatchling (dev extra) is not installed")

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
VERSION = re.search(r'__version__ = "([^"]+)"', (ROOT / "perfectplay" / "__init__.py").read_text())
STATIC = sorted(p.name for p in (ROOT / "perfectplay" / "web" / "static").iterdir())


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sdist and the wheel, built from the working tree without network access."""
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(ROOT)],
        check=True,
        capture_output=True,
        cwd=out,
    )
    return out


@pytest.fixture(scope="module")
def installed(dist: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """A fresh venv with the wheel installed and read-only; yields the environment to run in."""
    home = tmp_path_factory.mktemp("venv")
    venv = home / "venv"
    own = Path(sysconfig.get_paths()["purelib"])
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
    )
    (wheel,) = dist.glob("*.whl")
    pip = [sys.executable, "-m", "pip", "--python", str(python), "--disable-pip-version-check"]
    subprocess.run(
        [*pip, "install", "--quiet", "--no-deps", "--no-index", str(wheel)],
        check=True,
        capture_output=True,
    )
    # Then the dependencies, from this environment's site-packages: only after the install, so
    # that pip never sees (and replaces) this environment's own editable perfectplay; the .pth
    # files of that directory are not read, so the editable package stays out of sys.path.
    (site / "dependencies.pth").write_text(f"{own}\n")
    package = site / "perfectplay"
    for path in [package, *package.rglob("*")]:
        mode = path.stat().st_mode
        path.chmod(mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
    # root ignores the mode bits, so the tests also compare the files present with this list
    env = {
        "LISTING": listing(site),
        "OWN": own_install(own),
        "PATH": f"{venv / 'bin'}:{os.environ['PATH']}",
        "HOME": str(home),
        "NUMBA_CACHE_DIR": str(home / "numba-cache"),
        "PYTHONDONTWRITEBYTECODE": "1",
        "SITE": str(site),
    }
    yield env
    for path in [package, *package.rglob("*")]:
        path.chmod(path.stat().st_mode | stat.S_IWUSR)


def listing(site: Path) -> str:
    """The installed package's files, one per line, with their sizes."""
    package = site / "perfectplay"
    return "\n".join(
        f"{p.relative_to(site)} {p.stat().st_size}" for p in sorted(package.rglob("*"))
    )


def own_install(purelib: Path) -> str:
    """This environment's own perfectplay install (dist-info, editable hooks)."""
    return " ".join(sorted(p.name for p in purelib.glob("*perfectplay*")))


def run(env: dict[str, str], *args: str, stdin: str = "", cwd: Path | None = None) -> str:
    """Run the installed ``perfectplay`` command; its standard output."""
    done = subprocess.run(
        ["perfectplay", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd or env["HOME"],
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_build_gives_an_sdist_and_a_wheel_with_the_static_files(dist: Path) -> None:
    assert VERSION
    (wheel,) = dist.glob(f"perfectplay-{VERSION.group(1)}-py3-none-any.whl")
    (sdist,) = dist.glob(f"perfectplay-{VERSION.group(1)}.tar.gz")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {f"perfectplay/web/static/{name}" for name in STATIC} <= names
    assert "perfectplay/py.typed" in names
    assert not any(n.startswith("tests/") or n.endswith("conftest.py") for n in names)
    metadata = zipfile.ZipFile(wheel).read(f"perfectplay-{VERSION.group(1)}.dist-info/METADATA")
    assert f"Version: {VERSION.group(1)}" in metadata.decode()
    with tarfile.open(sdist) as archive:
        members = archive.getnames()
    assert any(m.endswith("perfectplay/web/static/game.js") for m in members)
    assert any(m.endswith("pyproject.toml") for m in members)


def test_installed_package_comes_from_the_wheel_and_is_read_only(installed: dict[str, str]) -> None:
    done = subprocess.run(
        [
            "python",
            "-c",
            "import perfectplay; print(perfectplay.__file__, perfectplay.__version__)",
        ],
        capture_output=True,
        text=True,
        env=installed,
        cwd=installed["HOME"],
        check=True,
    )
    where, version = done.stdout.split()
    assert Path(where).is_relative_to(installed["SITE"])
    assert not Path(where).is_relative_to(ROOT)
    assert VERSION and version == VERSION.group(1)
    assert not os.access(where, os.W_OK) or os.geteuid() == 0
    assert not os.stat(where).st_mode & stat.S_IWUSR
    assert run(installed, "--version").strip() == f"perfectplay {VERSION.group(1)}"


def test_installed_command_line_demo_problem_and_tiers(
    installed: dict[str, str], tmp_path: Path
) -> None:
    assert run(installed, "demo").strip()
    sample = "1 3\nP.P\n\n1 4\nP..P\n"
    assert run(installed, "problem", "board-game", stdin=sample) == "Bob wins.\nAlice wins.\n"
    tiers = tmp_path / "tiers"
    out = run(
        installed,
        *("solve", "connect-four", "--param", "rows=3", "--param", "cols=4"),
        *("--tiers", str(tiers)),
    )
    assert out.strip() and any(tiers.iterdir())
    assert listing(Path(installed["SITE"])) == installed["LISTING"]
    # regression: pip, run for the new venv, once saw this environment's editable perfectplay
    # through dependencies.pth and uninstalled it
    assert own_install(Path(sysconfig.get_paths()["purelib"])) == installed["OWN"] != "", (
        "nothing written there"
    )
    assert any(Path(installed["NUMBA_CACHE_DIR"]).rglob("*.nbi")), "numba caches in its dir"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def get(url: str) -> bytes:
    """The body at `url`, asked again while the server answers 202 (a game being solved)."""
    for _ in range(600):
        with urllib.request.urlopen(url, timeout=30) as response:
            if response.status != 202:
                assert response.status == 200, url
                return bytes(response.read())
        time.sleep(0.1)
    raise AssertionError(f"{url} still 202 after 60 s")


def test_installed_server_answers(installed: dict[str, str]) -> None:
    port = free_port()
    server = subprocess.Popen(
        ["perfectplay", "serve", "--host", "127.0.0.1", "--port", str(port)],
        env=installed,
        cwd=installed["HOME"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            try:
                page = get(base + "/")
                break
            except OSError:
                assert server.poll() is None, server.stderr.read() if server.stderr else ""
                time.sleep(0.1)
        else:
            pytest.fail("perfectplay serve did not answer within 60 s")
        assert b"<html" in page.lower()
        names = [g["name"] for g in json.loads(get(base + "/api/games"))["games"]]
        assert "nim" in names
        for name in STATIC:
            assert get(f"{base}/static/{name}")
        answer = json.loads(get(base + "/api/games/nim/position?params=heaps%3D1%2C2"))
        assert answer["value"] == "WIN"
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_installed_package_is_unchanged_after_every_command(installed: dict[str, str]) -> None:
    assert listing(Path(installed["SITE"])) == installed["LISTING"]
    # regression: pip, run for the new venv, once saw this environment's editable perfectplay
    # through dependencies.pth and uninstalled it
    assert own_install(Path(sysconfig.get_paths()["purelib"])) == installed["OWN"] != ""
