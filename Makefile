# Two commands on a fresh machine:
#   make test   installs what the tests need (.venv, pinned dbt, PySpark; PostgreSQL binaries and a Java 17
#               runtime if missing) and runs them; then the seed scenario on the lowest dbt minor declared
#   make demo   the seed scenario end to end on DuckDB, no server (see README): installs the DuckDB extra only
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEMO_STAMP := $(VENV)/.installed-duckdb
# the lowest dbt minor pyproject.toml declares, in a venv of its own (DuckDB only)
LOWEST_VENV := .venv-lowest-dbt
LOWEST_STAMP := $(LOWEST_VENV)/.installed

.PHONY: check test test-lowest-dbt docs demo install postgres-binaries java-runtime maven spark-jars clean

$(STAMP): pyproject.toml requirements/test-constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -c requirements/test-constraints.txt -e ".[postgres,duckdb,spark,test,lint]"
	touch $(STAMP)

# the demo needs dbt-core and dbt-duckdb alone (no PySpark, no PostgreSQL driver, no pytest)
$(DEMO_STAMP): pyproject.toml requirements/test-constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -c requirements/test-constraints.txt -e ".[duckdb]"
	touch $(DEMO_STAMP)

$(LOWEST_STAMP): pyproject.toml requirements/lowest-dbt.txt
	$(PYTHON) -m venv $(LOWEST_VENV)
	$(LOWEST_VENV)/bin/pip install --quiet --upgrade pip
	$(LOWEST_VENV)/bin/pip install --quiet -c requirements/lowest-dbt.txt -e ".[duckdb,test]"
	touch $(LOWEST_STAMP)

install: $(STAMP)

# The tests start their own throwaway PostgreSQL cluster from the server binaries; install them if absent.
postgres-binaries:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1 || \
	  { echo "installing PostgreSQL server binaries"; apt-get update -qq && apt-get install -y -qq postgresql >/dev/null; }

# The Spark tests start a local Spark Connect server, which needs a Java runtime (17 or newer).
java-runtime:
	@command -v java >/dev/null 2>&1 || \
	  { echo "installing a Java 17 runtime for Spark"; apt-get update -qq && apt-get install -y -qq openjdk-17-jre-headless >/dev/null; }

# The Delta and Iceberg runtime jars the test Spark server loads, fetched from Maven Central by mvn (as the machine
# configures it) into a cache folder of the project's: requirements/spark-table-formats.pom says which and why.
SPARK_JARS := .cache/spark-jars
SPARK_JARS_STAMP := $(SPARK_JARS)/.fetched

maven: java-runtime
	@command -v mvn >/dev/null 2>&1 || \
	  { echo "installing Maven"; apt-get update -qq && apt-get install -y -qq maven >/dev/null; }

$(SPARK_JARS_STAMP): requirements/spark-table-formats.pom
	@$(MAKE) --no-print-directory maven
	rm -rf $(SPARK_JARS) && mkdir -p $(SPARK_JARS)
	mvn -q -B -Dstyle.color=never -f requirements/spark-table-formats.pom -Dmaven.repo.local=$(abspath .cache/m2) \
	  dependency:copy-dependencies -DexcludeTransitive=true -DoutputDirectory=$(abspath $(SPARK_JARS))
	touch $(SPARK_JARS_STAMP)

spark-jars: $(SPARK_JARS_STAMP)

# Two xdist workers (the machine's two cores), each with its own PostgreSQL cluster and, if it runs Spark tests,
# its own Spark server; the 25 slowest tests are printed. The suite's budget: 30 minutes on 2 cores (DEVELOPING.md).
PYTEST_WORKERS ?= 2

# The contracts, before any test (seconds): lint and format (ruff), the import floors (import-linter: cli ->
# formatter -> workflow -> dbt_runner -> packet/spec -> base; no verb imports another) and the types (mypy).
check: install
	$(BIN)/ruff check python_plugin tests bench
	$(BIN)/ruff format --check python_plugin tests bench
	$(BIN)/lint-imports
	$(BIN)/mypy
	# the macros' floors and layout, as lint-imports holds the Python's (seconds, no database)
	$(BIN)/python -m pytest tests/test_macro_floors.py tests/test_macro_layout.py tests/test_decisions_index.py -q -n 0 -p no:cacheprovider

test: install postgres-binaries java-runtime spark-jars
	$(BIN)/python -m pytest tests -q -n $(PYTEST_WORKERS) --dist loadgroup --no-loadscope-reorder --durations=25 $(PYTEST_ARGS)
ifeq ($(strip $(PYTEST_ARGS)),)
	$(MAKE) --no-print-directory test-lowest-dbt
endif

# The seed scenario on DuckDB with the lowest dbt minor declared (the whole suite runs on the highest). Part of
# `make test` when it runs everything (no PYTEST_ARGS).
test-lowest-dbt: $(LOWEST_STAMP)
	DBT_BACKFILL_EXPECTED_DBT=lowest $(LOWEST_VENV)/bin/python -m pytest tests/test_packaging.py tests/test_seed_scenario.py tests/test_demo.py -q -n 0 -m duckdb -p no:cacheprovider

# The seed scenario on DuckDB (no server); the project is left in ./dbt_backfill_demo.
demo: $(DEMO_STAMP)
	$(BIN)/dbt-backfill demo

clean:
	rm -rf $(VENV) $(LOWEST_VENV) .pytest_cache .cache

# The transcripts in README.md and docs/: run the documented commands on DuckDB and write their real output where a
# page marks one (tests/documented.py); `make test` checks them
docs: install
	DBT_BACKFILL_WRITE_DOCS=1 $(BIN)/python -m pytest tests/test_documented_commands.py -q -n 0 -k duckdb -p no:cacheprovider
