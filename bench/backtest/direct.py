"""Baseline of the backtest benchmark: the same strategy, run directly by python3 (no sandbox).

Usage: python3 direct.py STRATEGY_FILE < rows.json
Prints the strategy's own lines on stdout and one JSON line {"trades", "main_ms"} on stderr.
"""

import importlib.util
import json
import sys
import time

spec = importlib.util.spec_from_file_location("strategy", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
rows = json.loads(sys.stdin.buffer.read())
started = time.perf_counter()
trades = module.main(rows)
main_ms = (time.perf_counter() - started) * 1000
sys.stdout.flush()
sys.stderr.write(json.dumps({"trades": len(trades), "main_ms": main_ms}) + "\n")
