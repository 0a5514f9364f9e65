# One entry point per job; CI runs `make test` and `make docs`, the commands the README gives.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test test-lowest lint docs bench bench-crawl bench-crawl-large bench-million bench-linkcheck clean

# --upgrade-strategy eager: a venv set up again gets the newest versions the bounds allow, as a
# fresh clone does, not the ones it already holds (lxml 6.2 once failed only on fresh installs).
$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --upgrade --upgrade-strategy eager -e '.[dev,bench]'
	@touch $(STAMP)

## demo: set up, then crawl the bundled demo site (loopback 127.0.0.2-5) and print the report
## (make demo DEMO_ARGS="--warc demo-warc" also archives it as WARC files)
DEMO_ARGS ?=
demo: $(STAMP)
	$(BIN)/politecrawl demo $(DEMO_ARGS)

## lint: ruff, mypy (strict, on the package) and the import-layer contracts
lint: $(STAMP)
	$(BIN)/ruff check politecrawl migrations tests bench .ci docs/_hooks
	$(BIN)/ruff format --check politecrawl migrations tests bench .ci docs/_hooks
	$(BIN)/mypy
	$(BIN)/lint-imports

## test: set up, lint, then the whole test suite, in TEST_PROCESSES processes (pytest-xdist)
## (make test TEST_PROCESSES=0 runs it in this one process)
TEST_PROCESSES ?= 4
test: lint
	$(BIN)/pytest -n $(TEST_PROCESSES)

## test-lowest: the whole suite again with every runtime dependency at the lowest version
## pyproject.toml declares (.ci/lowest_constraints.py), in its own venv: a wrong bound fails here
LOWEST := .venv-lowest
test-lowest:
	@test -x $(LOWEST)/bin/python || $(PYTHON) -m venv $(LOWEST)
	$(PYTHON) .ci/lowest_constraints.py > $(LOWEST)/constraints.txt
	$(LOWEST)/bin/python -m pip install --quiet --upgrade pip
	$(LOWEST)/bin/python -m pip install --quiet --upgrade -c $(LOWEST)/constraints.txt -e '.[dev]'
	$(LOWEST)/bin/python -m pip list --format=freeze | grep -i -f $(LOWEST)/constraints.txt
	$(LOWEST)/bin/pytest -n $(TEST_PROCESSES) -p no:cacheprovider

## docs: set up (the docs extra, once), then build the documentation site into site/ with
## warnings as errors: a broken link or anchor, or a reference to a Python object that is gone,
## fails. mkdocs.yml configures it; the configuration reference is written from the settings'
## docstrings at build time (docs/_hooks/settings_reference.py).
DOCS_STAMP := $(VENV)/.installed-docs
$(DOCS_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet --upgrade --upgrade-strategy eager -e '.[docs]'
	@touch $(DOCS_STAMP)

docs: $(DOCS_STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

## bench: the benchmarks (figures printed, nothing asserted)
bench: $(STAMP)
	$(BIN)/python bench/robots_bench.py
	$(BIN)/python bench/frontier_bench.py

## bench-crawl: politecrawl against Scrapy on a local multi-host web served by nginx (minutes)
bench-crawl: $(STAMP)
	test -x /usr/sbin/nginx || command -v nginx >/dev/null || (apt-get update -qq && apt-get install -y -qq nginx)
	$(BIN)/python -m pip install --quiet -e '.[bench,peers]'
	$(BIN)/python bench/run.py --hosts 20 --pages 500 --delay 0
	$(BIN)/python bench/run.py --hosts 20 --pages 50 --delay 0.2

## bench-linkcheck: politecrawl check against LinkChecker on the test web's link-checking site
bench-linkcheck: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[bench,peers]'
	$(BIN)/python bench/linkcheck.py

## bench-crawl-large: H=100 P=1000 (119,000 URLs), stopped mid-way and resumed (about 30 minutes)
bench-crawl-large: $(STAMP)
	test -x /usr/sbin/nginx || command -v nginx >/dev/null || (apt-get update -qq && apt-get install -y -qq nginx)
	$(BIN)/python -m pip install --quiet -e '.[bench,peers]'
	$(BIN)/python bench/run.py --hosts 100 --pages 1000 --kill-resume --kill-signal TERM
	$(BIN)/python bench/run.py --hosts 100 --pages 1000 --kill-resume --only politecrawl

## bench-million: H=200 P=5000 (about 1.1 million URLs) on PostgreSQL, 2 processes, killed
## mid-way and resumed (about 1.5 hours; about 7 GB of disk: see bench/README.md).
## make bench-million BENCH_POSTGRES=postgresql+psycopg://... BENCH_MILLION_ARGS="--work DIR --json FILE"
BENCH_POSTGRES ?= postgresql+psycopg://postgres@127.0.0.1:5432/test
BENCH_MILLION_ARGS ?=
bench-million: $(STAMP)
	test -x /usr/sbin/nginx || command -v nginx >/dev/null || (apt-get update -qq && apt-get install -y -qq nginx)
	$(BIN)/python -m pip install --quiet -e '.[bench,peers,postgres]'
	$(BIN)/python bench/run.py --hosts 200 --pages 5000 --delay 0 --postgres $(BENCH_POSTGRES) \
		--kill-resume --only politecrawl --processes 2 --timeout 14400 $(BENCH_MILLION_ARGS)

clean:
	rm -rf $(VENV) $(LOWEST) site build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache
