"""Who can reach the app: loopback by default; another address only when the operator says so.

Without sign-in anyone who reaches the port can read, ask, review and delete. Serving on any address
but loopback therefore needs sign-in configured (an `[auth]` section in .streamlit/secrets.toml, see
ui/auth.py) or `RRAG_ALLOW_ANONYMOUS_NETWORK=1`; with the latter and no sign-in, every page shows that
it is open to the network.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence
from pathlib import Path

import click
from streamlit import config
from streamlit.web import bootstrap, cli

from rrag.settings import ENV_PREFIX

APP = Path(__file__).resolve().parents[1] / "app.py"
LOOPBACK_ADDRESS = "127.0.0.1"
ADDRESS_OPTION = "--server.address"
ALLOW_VARIABLE = ENV_PREFIX + "ALLOW_ANONYMOUS_NETWORK"
BANNER = (
    "**Open to the network without sign-in.** Anyone who can reach this address can read the documents, "
    f"ask, record reviews and delete documents ({ALLOW_VARIABLE}=1). Serve on 127.0.0.1 unless this is "
    "what you mean."
)


def is_loopback(address: str) -> bool:
    host = address.strip().strip("[]")
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False  # a host name or "" (Streamlit's "all interfaces"): not provably local


def bound_address(argv: Sequence[str], app: Path = APP) -> str | None:
    """The address `streamlit run APP *argv` binds, read as Streamlit reads it, by its own parser and
    config loader: the last `--server.address` flag, else STREAMLIT_SERVER_ADDRESS, else the config
    files (global, project, the app's own); None when none names one (Streamlit binds every
    interface). ValueError for options Streamlit would refuse."""
    try:
        flags = cli.main_run.make_context("run", [str(app), *argv]).params
    except click.ClickException as exc:
        raise ValueError(f"Streamlit refuses these options: {exc.format_message()}") from None
    # Streamlit's loader works on the module's state: it is put back as it was afterwards.
    before = config._config_options, config._main_script_path
    config._main_script_path = str(app)  # as `streamlit run` sets it: the app's own config.toml counts
    try:
        bootstrap.load_config_options({k: v for k, v in flags.items() if k not in ("target", "args")})
        address = config.get_option("server.address") if config.is_manually_set("server.address") else None
    finally:
        config._config_options, config._main_script_path = before
    return None if address is None else str(address)


def serve_options(argv: Sequence[str], *, allow_anonymous: bool, signed_in: bool = False) -> list[str]:
    """Streamlit's options with the address it binds made explicit, as the last flag: loopback unless
    the options, the environment or a config file name another one, which needs sign-in configured
    (`signed_in`) or `allow_anonymous` (ValueError with what to do otherwise)."""
    address = bound_address(argv)
    if address is None:
        address = LOOPBACK_ADDRESS
    elif not is_loopback(address) and not (signed_in or allow_anonymous):
        raise ValueError(
            f"Refusing to serve on {address or 'all interfaces'}: sign-in is not configured, so anyone "
            f"who reaches it could read and delete the documents. Serve on {LOOPBACK_ADDRESS} (the "
            f"default), configure sign-in ([auth] in .streamlit/secrets.toml), or set {ALLOW_VARIABLE}=1 "
            "to accept that."
        )
    return [*argv, ADDRESS_OPTION, address]


def open_to_network(address: str | None, *, allow_anonymous: bool, signed_in: bool = False) -> bool:
    """Whether the running server is reachable from the network without sign-in (the banner shows)."""
    return allow_anonymous and not signed_in and not is_loopback(address or "")
