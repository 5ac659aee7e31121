"""Loopback by default: the server binds 127.0.0.1 unless told otherwise, refuses a network address
without RRAG_ALLOW_ANONYMOUS_NETWORK=1, and every page warns when it is open to the network."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import streamlit as st
from streamlit import config
from streamlit.testing.v1 import AppTest

from ui.network import BANNER, LOOPBACK_ADDRESS, bound_address, is_loopback, open_to_network, serve_options

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "app.py"


def test_the_address_is_loopback_unless_named() -> None:
    assert serve_options(["--server.port", "8611"], allow_anonymous=False) == [
        "--server.port",
        "8611",
        "--server.address",
        LOOPBACK_ADDRESS,
    ]
    assert serve_options(["--server.address=::1"], allow_anonymous=False)[-2:] == ["--server.address", "::1"]


@pytest.mark.parametrize("address", ["0.0.0.0", "", "192.168.1.20", "my-host.example", "::"])
def test_a_network_address_needs_the_explicit_variable(address: str) -> None:
    with pytest.raises(ValueError, match="ALLOW_ANONYMOUS_NETWORK"):
        serve_options(["--server.address", address], allow_anonymous=False)
    assert serve_options(["--server.address", address], allow_anonymous=True)[-1] == address


def test_a_network_address_is_allowed_with_sign_in_and_shows_no_anonymous_banner() -> None:
    assert (
        serve_options(["--server.address", "0.0.0.0"], allow_anonymous=False, signed_in=True)[-1] == "0.0.0.0"
    )
    assert open_to_network("0.0.0.0", allow_anonymous=True)
    assert not open_to_network("0.0.0.0", allow_anonymous=True, signed_in=True)


@pytest.mark.parametrize("address", ["127.0.0.1", "127.0.0.2", "localhost", "::1", "[::1]"])
def test_loopback_addresses(address: str) -> None:
    assert is_loopback(address)


def test_the_server_refuses_to_start_on_all_interfaces_before_loading_anything() -> None:
    env = {k: v for k, v in os.environ.items() if k != "RRAG_ALLOW_ANONYMOUS_NETWORK"}
    done = subprocess.run(
        [sys.executable, "-m", "ui.serve", "--server.address", "0.0.0.0", "--server.port", "1"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert "Refusing to serve on 0.0.0.0" in done.stderr


@pytest.mark.parametrize(
    ("argv", "bound"),
    [
        (["--server.address", "127.0.0.1", "--server.address", "0.0.0.0"], "0.0.0.0"),  # the last flag
        (["--server.address=0.0.0.0", "--server.address", "::1"], "::1"),
        (["--server.address=127.0.0.1", "--server.address="], ""),  # "": every interface
        (["--server.port", "8611"], "127.0.0.1"),  # the app's own .streamlit/config.toml
    ],
)
def test_the_guard_reads_the_address_streamlit_binds(argv: list[str], bound: str) -> None:
    # Issue 46, item 5: the guard read the first flag, Streamlit bound the last.
    assert bound_address(argv) == bound
    if is_loopback(bound):
        assert serve_options(argv, allow_anonymous=False)
    else:
        with pytest.raises(ValueError, match="ALLOW_ANONYMOUS_NETWORK"):
            serve_options(argv, allow_anonymous=False)


def test_the_guard_reads_the_environment_and_the_config_files(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("STREAMLIT_SERVER_ADDRESS", "0.0.0.0")
    assert bound_address([]) == "0.0.0.0"
    with pytest.raises(ValueError, match="Refusing to serve on 0.0.0.0"):
        serve_options([], allow_anonymous=False)
    assert bound_address(["--server.address", "127.0.0.1"]) == "127.0.0.1"  # a flag beats the variable
    monkeypatch.delenv("STREAMLIT_SERVER_ADDRESS")
    app = tmp_path / "app.py"  # an app whose own config.toml names an address
    app.write_text("")
    (tmp_path / ".streamlit").mkdir()
    (tmp_path / ".streamlit" / "config.toml").write_text('[server]\naddress = "192.168.1.20"\n')
    assert bound_address([], app) == "192.168.1.20"
    assert config.get_option("server.address") != "192.168.1.20"  # this process's config is as it was


def test_the_server_refuses_a_second_address_flag_naming_all_interfaces() -> None:
    env = {k: v for k, v in os.environ.items() if k != "RRAG_ALLOW_ANONYMOUS_NETWORK"}
    args = ["--server.address", "127.0.0.1", "--server.address", "0.0.0.0", "--server.port", "1"]
    done = subprocess.run(
        [sys.executable, "-m", "ui.serve", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0 and "Refusing to serve on 0.0.0.0" in done.stderr


def test_the_makefile_and_the_config_bind_loopback() -> None:
    assert "--server.address $(ADDRESS)" in (ROOT / "Makefile").read_text()
    assert "ADDRESS ?= 127.0.0.1" in (ROOT / "Makefile").read_text()
    assert 'address = "127.0.0.1"' in (ROOT / ".streamlit" / "config.toml").read_text()


@pytest.fixture
def served_on() -> Iterator[object]:
    before = config.get_option("server.address")
    yield lambda address: config.set_option("server.address", address)
    config.set_option("server.address", before)
    st.cache_data.clear()
    st.cache_resource.clear()


def _banners(at: AppTest) -> list[str]:
    return [w.value for w in at.warning if "Open to the network" in w.value]


@pytest.mark.parametrize(
    ("address", "allow", "shown"),
    [("0.0.0.0", "1", True), ("127.0.0.1", "1", False), ("0.0.0.0", None, False)],
)
def test_every_page_warns_while_open_to_the_network(
    served_on, monkeypatch: pytest.MonkeyPatch, address: str, allow: str | None, shown: bool
) -> None:
    served_on(address)
    if allow:
        monkeypatch.setenv("RRAG_ALLOW_ANONYMOUS_NETWORK", allow)
    at = AppTest.from_file(str(APP), default_timeout=120).run()
    assert not at.exception
    assert _banners(at) == ([BANNER] if shown else [])
    if shown:
        at.switch_page("pages/settings.py").run()
        assert _banners(at) == [BANNER]
