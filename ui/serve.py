"""`python -m ui.serve [streamlit options]`: serve the app as `make run` does, warmed up first.

Streamlit imports a page's modules on the first visit, and the engine (embedding and verifier models,
index, database) is built then too: a blank page for the first visitor for 10 s and more. Both are done
here, before the server listens, so the first visitor sees the page at once. The engine handle is the
one `st.cache_resource` keeps, so the pages reuse it.

It listens on 127.0.0.1 unless the options, STREAMLIT_SERVER_ADDRESS or a config file name another
address, which ui/network.py allows only with sign-in configured or `RRAG_ALLOW_ANONYMOUS_NETWORK=1`.
"""

from __future__ import annotations

import sys

from streamlit.web import cli

from rrag.errors import RRAGError
from rrag.settings import Settings
from ui.auth import sign_in_configured
from ui.network import APP, serve_options


def warm_up() -> None:
    import ui.report_view  # noqa: F401 - plotly and the page helpers, imported once here
    from ui.engine import get_engine

    try:
        get_engine()
    except RRAGError:
        pass  # storage that cannot open: the page says why, where the user can read it


def main() -> None:
    try:
        allow = Settings.from_env().allow_anonymous_network
        options = serve_options(sys.argv[1:], allow_anonymous=allow, signed_in=sign_in_configured())
    except (ValueError, RRAGError) as exc:
        sys.exit(f"error: {exc}")
    warm_up()
    sys.argv = ["streamlit", "run", str(APP), *options]
    sys.exit(cli.main())


if __name__ == "__main__":
    main()
