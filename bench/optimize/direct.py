"""Baseline of the optimisation benchmark: the same backtests as a plain CPython loop.

Usage: python3 direct.py STRATEGY_FILE < {"rows": [...], "trials": [{"fast": 5, ...}, ...]}
Loads the strategy once, then for each trial sets PARAMS and calls main(rows). Prints one
JSON line {"trials", "trades", "loop_ms"} on stderr (the loop only, interpreter start and
reading the rows excluded).
"""

import importlib.util
import io
import json
import sys
import time

spec = importlib.util.spec_from_file_location("strategy", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
job = json.loads(sys.stdin.buffer.read())
rows = job["rows"]
trades = 0
real_stdout = sys.stdout
sys.stdout = io.StringIO()  # the strategy's printed lines, kept as the sandbox keeps them
started = time.perf_counter()
for values in job["trials"]:
    module.PARAMS.update(values)
    trades += len(module.main([list(row) for row in rows]))
loop_ms = (time.perf_counter() - started) * 1000
sys.stdout = real_stdout
sys.stderr.write(json.dumps({"trials": len(job["trials"]), "trades": trades, "loop_ms": loop_ms}) + "\n")
