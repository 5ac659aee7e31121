"""Who can reach the app: loopback by default; another address only when the operator says so.

Without sign-in anyone who reaches the port can read, ask, review and delete. Serving on any address
but loopback therefore needs sign-in configured (an `[auth]` section in .streamlit/secrets.toml, see
ui/auth.py) or `RRAG_ALLOW_ANONYMOUS_NETWORK=1`; with the latter and no sign-in, every page shows that
it is open to the network.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence

from rrag.settings import ENV_PREFIX

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


def requested_address(argv: Sequence[str]) -> str | None:
    """The `--server.address` among Streamlit's options (`--opt value` or `--opt=value`), if any."""
    for n, arg in enumerate(argv):
        if arg == ADDRESS_OPTION and n + 1 < len(argv):
            return argv[n + 1]
        if arg.startswith(ADDRESS_OPTION + "="):
            return arg.partition("=")[2]
    return None


def serve_options(argv: Sequence[str], *, allow_anonymous: bool, signed_in: bool = False) -> list[str]:
    """Streamlit's options with the address made explicit: loopback unless another one is named, which
    needs sign-in configured (`signed_in`) or `allow_anonymous` (ValueError with what to do otherwise)."""
    address = requested_address(argv)
    if address is None:
        return [ADDRESS_OPTION, LOOPBACK_ADDRESS, *argv]
    if not is_loopback(address) and not (signed_in or allow_anonymous):
        raise ValueError(
            f"Refusing to serve on {address or 'all interfaces'}: sign-in is not configured, so anyone "
            f"who reaches it could read and delete the documents. Serve on {LOOPBACK_ADDRESS} (the "
            f"default), configure sign-in ([auth] in .streamlit/secrets.toml), or set {ALLOW_VARIABLE}=1 "
            "to accept that."
        )
    return list(argv)


def open_to_network(address: str | None, *, allow_anonymous: bool, signed_in: bool = False) -> bool:
    """Whether the running server is reachable from the network without sign-in (the banner shows)."""
    return allow_anonymous and not signed_in and not is_loopback(address or "")
