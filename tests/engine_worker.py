"""One engine process for the scale-out test: reads JSON commands on stdin, answers one JSON line each.

    {"op": "ingest", "path": "..."} -> {"status": ..., "doc_id": ...}
    {"op": "ask", "question": "..."} -> {"session_id": ..., "contexts": [[source, vector, keyword], ...]}
    {"op": "sessions"} -> {"session_ids": [...]}

Settings come from the RRAG_* environment, as for the app.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from rrag.engine.pipeline import ReliableRAG


def main() -> None:
    rag = ReliableRAG()
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        command = json.loads(line)
        if command["op"] == "ingest":
            (result,) = rag.ingest([Path(command["path"])])
            reply = {"status": result.status, "doc_id": result.doc_id, "error": result.error}
        elif command["op"] == "ask":
            report = rag.ask(command["question"])
            reply = {
                "session_id": report.session_id,
                "contexts": [[rc.chunk.source, rc.vector_score, rc.keyword_score] for rc in report.contexts],
            }
        else:
            reply = {"session_ids": [s.session_id for s in rag.sessions()]}
        print(json.dumps(reply), flush=True)
    rag.close()


if __name__ == "__main__":
    main()
