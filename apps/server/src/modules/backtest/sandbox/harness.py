"""Runs ONE strategy job, then exits. Started by the server inside the sandbox (sandbox.ts).

Session mode (a job with "session": true, optimisation trials): the code is loaded and the
rows read once; then each further stdin line {"update": "PARAMS.update({...})"} runs that
line in the strategy's module and main() again, and its result is written to fd 3 as one
line; a line {"updates": [...]} runs each in turn, a result line each; EOF ends the process.

Protocol:
- stdin: one JSON job line {"code", "filename", "wire"} followed by the rows' columns (their
  bytes, `read_rows`; rows-wire.ts), or {"code", "filename", "rows"} with the rows as JSON;
  then EOF. The process is started before
  the job exists (pool), so it blocks here until the server sends it.
- fd 1: every line the strategy prints (stdout and stderr, also C-level stderr), as text.
  The server streams these lines to the log socket; they are never parsed as results.
  While main() runs, a line "\x1eprogress N" now and then says how far (N %) through the rows
  the strategy is (`Progress`); the server shows it instead of logging it.
- fd 3: the result, one JSON document, written once after main() returns:
  {"ok": true, "records": [...], "count": N, "elapsed_ms": ms}
  {"ok": false, "kind": "exception|syntax|memory|exit|no_main", "error": text}
A strategy can write to fd 3 itself; that only "forges" its own result, which the server
validates against the contract like any other, and metrics are computed by the server.
"""

import array
import bisect
import builtins
import datetime
import itertools
import json
import linecache
import os
import sys
import threading
import time
import traceback

RESULT_FD = 3
MAX_RECORDS = 100_000
KNOWN_FIELDS = ("open_date", "close_date", "open_price", "close_price", "lots", "status", "code")
MAX_PARTIAL_LINE = 8192
HARNESS_FILE = __file__


def write_all(fd, data):
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


class LineWriter:
    """A text stream that sends whole lines to the log fd as soon as they are complete."""

    encoding = "utf-8"
    errors = "replace"

    def __init__(self, fd):
        self.fd = fd
        self.partial = ""

    def write(self, text):
        if not isinstance(text, str):
            raise TypeError("write() argument must be str, not %s" % type(text).__name__)
        self.partial += text
        if "\n" in self.partial:
            head, _, self.partial = self.partial.rpartition("\n")
            write_all(self.fd, (head + "\n").encode("utf-8", "replace"))
        if len(self.partial) > MAX_PARTIAL_LINE:
            self.finish()
        return len(text)

    def finish(self):
        if self.partial:
            text, self.partial = self.partial, ""
            write_all(self.fd, (text + "\n").encode("utf-8", "replace"))

    def flush(self):
        pass

    def writable(self):
        return True

    def isatty(self):
        return False

    def fileno(self):
        return self.fd


INFINITY = float("inf")
MAX_EXACT_INT = 2**53


def convert(value):
    """A field value as JSON can carry it; anything else becomes a marker the server names.
    The plain types a strategy returns are told by their exact type first (a result of
    100,000 records converts 700,000 values)."""
    kind = type(value)
    if kind is float:
        return value if value == value and -INFINITY < value < INFINITY else {"$nonfinite": repr(value)}
    if kind is str:
        return value[:200]
    if kind is int:
        return value if -MAX_EXACT_INT <= value <= MAX_EXACT_INT else float(value)
    if value is None or kind is bool:
        return value
    return convert_other(value)


def convert_other(value):
    """`convert` of a subclass of a plain type, a date, a numpy or Decimal value, or anything else."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        return value[:200]
    if isinstance(value, int):
        return value if abs(value) <= MAX_EXACT_INT else float(value)
    if isinstance(value, float):
        return value if value == value and -INFINITY < value < INFINITY else {"$nonfinite": repr(value)}
    if isinstance(value, datetime.datetime):
        return value.strftime("%Y-%m-%d %H:%M:%S")
    if isinstance(value, datetime.date):
        return value.strftime("%Y-%m-%d")
    kind = type(value)
    if kind.__module__ == "numpy":
        if kind.__name__.startswith("datetime64"):
            return str(value)
        if hasattr(value, "item"):
            return convert(value.item())
    if kind.__module__ == "decimal" and kind.__name__ == "Decimal":
        return convert(float(value))
    return {"$type": kind.__name__}


def convert_records(result):
    kind = type(result)
    if kind.__name__ == "DataFrame" and hasattr(result, "to_dict"):
        result = result.to_dict("records")
    if not isinstance(result, (list, tuple)):
        return None, convert(result)
    records = []
    for record in result[: MAX_RECORDS + 1]:
        if isinstance(record, dict):
            records.append({key: convert(record[key]) for key in KNOWN_FIELDS if key in record})
        else:
            records.append({"$type": type(record).__name__})
    return len(result), records


def read_rows(wire, stream):
    """The rows of data_array from their columns (rows-wire.ts): the header's `wire`, then its
    bytes on `stream`. Exactly the lists json.loads would give for the same rows."""
    count = wire["count"]
    size = wire["bytes"]
    data = stream.read(size) if size else b""
    if len(data) != size:
        raise ValueError("the rows ended early")
    view = memoryview(data)
    at = 0
    columns = []
    for column in wire["columns"]:
        kind = column["kind"]
        part = view[at : at + column.get("bytes", 0)]
        at += column.get("bytes", 0)
        if kind == "const":
            values = itertools.repeat(column["value"], count)
        elif kind == "lines":
            values = str(part, "utf-8").split("\n")
        elif kind == "i32":
            values = array.array("i")
            values.frombytes(part)
            values = values.tolist()
        elif kind == "f64":
            values = array.array("d")
            values.frombytes(part[: 8 * count])
            values = values.tolist()
            whole = array.array("i")
            whole.frombytes(part[8 * count :])
            for i in whole:
                values[i] = int(values[i])
        elif kind == "json":
            values = json.loads(str(part, "utf-8"))
        else:
            raise ValueError("unknown column kind %r" % (kind,))
        columns.append(values)
    if not columns:
        return [[] for _ in range(count)]
    return list(map(list, zip(*columns)))


PROGRESS_MARK = "\x1eprogress "


class Progress:
    """How far main() is through the rows, told on the log fd every so often: a thread looks in
    the strategy's running frames, innermost first, for a row of data_array, or a date of one,
    among their local variables, and places it in the rows by its date (the rows are in time order). It
    only reads; anything unexpected (a strategy that reorders its rows) just tells nothing."""

    INTERVAL = 0.5
    STEP = 5

    def __init__(self, rows, filename, fd=1):
        self.rows = rows
        self.filename = filename
        self.fd = fd
        self.target = threading.get_ident()
        self.done = threading.Event()
        self.told = None
        self.thread = None

    def start(self):
        if len(self.rows) < 2:
            return self
        try:
            self.thread = threading.Thread(target=self.watch, daemon=True)
            self.thread.start()
        except RuntimeError:  # no thread to spare (the process limit): no progress
            self.thread = None
        return self

    def stop(self):
        self.done.set()
        if self.thread is not None:
            self.thread.join()
        self.rows = None  # the rows are freed with main()'s

    def watch(self):
        while not self.done.wait(self.INTERVAL):
            try:
                at = self.position()
            except Exception:
                at = None
            if at is None:
                continue
            percent = min(100, at * 100 // len(self.rows)) // self.STEP * self.STEP
            if percent != self.told and not self.done.is_set():
                self.told = percent
                write_all(self.fd, ("%s%d\n" % (PROGRESS_MARK, percent)).encode())

    def position(self):
        """The furthest row the strategy's innermost frame that holds one (or its date) holds,
        or None: a helper the loop calls (a moving average of ints) holds no row, its caller
        does."""
        frame = sys._current_frames().get(self.target)
        while frame is not None:
            if frame.f_code.co_filename == self.filename:
                at = self.position_in(frame)
                if at is not None:
                    return at
            frame = frame.f_back
        return None

    def position_in(self, frame):
        best = None
        for value in list(frame.f_locals.values()):
            if type(value) is list and len(value) > 0:
                value = value[0]
            if type(value) is not str or len(value) < 10:
                continue
            at = self.index_of(value)
            if at is not None and (best is None or at > best):
                best = at
        return best

    def index_of(self, date):
        rows = self.rows
        at = bisect.bisect_left(rows, date, key=lambda row: row[0])
        if at < len(rows) and rows[at][0] == date:
            return at
        return None


def read_job(stream):
    """The job line and, when its rows come as columns, the rows (`rows` either way)."""
    job = json.loads(stream.readline())
    wire = job.pop("wire", None)
    if wire is not None:
        job["rows"] = read_rows(wire, stream)
    return job


def user_traceback(error):
    tb = error.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename == HARNESS_FILE:
        tb = tb.tb_next
    return "".join(traceback.format_exception(type(error), error, tb)).rstrip("\n")


def send_result(payload):
    write_all(RESULT_FD, json.dumps(payload, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode("utf-8"))
    os.close(RESULT_FD)


def run(job, out):
    code = job["code"]
    filename = os.path.basename(str(job.get("filename") or "strategy.py")) or "strategy.py"
    if not filename.endswith(".py"):
        filename += ".py"
    rows = job["rows"]
    del job
    # tracebacks show the strategy's source lines
    linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)
    sys.argv = [filename]
    namespace = {"__name__": "__strategy__", "__file__": filename, "__builtins__": builtins}
    started = time.perf_counter()
    try:
        compiled = compile(code, filename, "exec")
    except (SyntaxError, ValueError) as error:
        return {"ok": False, "kind": "syntax", "error": user_traceback(error)}
    try:
        exec(compiled, namespace)
        main = namespace.get("main")
        if not callable(main):
            return {"ok": False, "kind": "no_main", "error": "The strategy must define a function main(data_array)"}
        progress = Progress(rows, filename).start()
        try:
            result = main(rows)
        finally:
            progress.stop()
        del rows
        count, records = convert_records(result)
        del result
    except MemoryError:
        return {"ok": False, "kind": "memory", "error": "MemoryError"}
    except SystemExit as error:
        return {"ok": False, "kind": "exit", "error": "The strategy called exit(%r)" % (error.code,)}
    except BaseException as error:  # the strategy's own failure, reported to its author
        return {"ok": False, "kind": "exception", "error": user_traceback(error)}
    elapsed = round((time.perf_counter() - started) * 1000, 3)
    return {"ok": True, "count": count, "records": records, "elapsed_ms": elapsed}


def session(job, out, own_pid):
    """Loads the strategy once, then runs main() once per update line (see the docstring)."""
    code = job["code"]
    filename = os.path.basename(str(job.get("filename") or "strategy.py")) or "strategy.py"
    if not filename.endswith(".py"):
        filename += ".py"
    rows = job["rows"]
    del job
    linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)
    sys.argv = [filename]
    namespace = {"__name__": "__strategy__", "__file__": filename, "__builtins__": builtins}
    failed = None
    try:
        exec(compile(code, filename, "exec"), namespace)
    except (SyntaxError, ValueError) as error:
        failed = {"ok": False, "kind": "syntax", "error": user_traceback(error)}
    except MemoryError:
        failed = {"ok": False, "kind": "memory", "error": "MemoryError"}
    except SystemExit as error:
        failed = {"ok": False, "kind": "exit", "error": "The strategy called exit(%r)" % (error.code,)}
    except BaseException as error:
        failed = {"ok": False, "kind": "exception", "error": user_traceback(error)}
    while True:
        line = sys.stdin.buffer.readline()
        if not line:
            return
        message = json.loads(line)
        # {"updates": [...]}: several trials in one message, a result line each, in order
        for update in message["updates"] if "updates" in message else [message["update"]]:
            payload = failed or run_main(namespace, rows, update, filename)
            out.finish()
            if os.getpid() != own_pid:
                os._exit(0)
            write_all(RESULT_FD, json.dumps(payload, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode("utf-8") + b"\n")


def run_main(namespace, rows, update, filename):
    started = time.perf_counter()
    try:
        exec(compile(update, filename, "exec"), namespace)
        main = namespace.get("main")
        if not callable(main):
            return {"ok": False, "kind": "no_main", "error": "The strategy must define a function main(data_array)"}
        result = main([list(row) for row in rows])
        count, records = convert_records(result)
        del result
    except MemoryError:
        return {"ok": False, "kind": "memory", "error": "MemoryError"}
    except SystemExit as error:
        return {"ok": False, "kind": "exit", "error": "The strategy called exit(%r)" % (error.code,)}
    except BaseException as error:  # the strategy's own failure, reported to its author
        return {"ok": False, "kind": "exception", "error": user_traceback(error)}
    elapsed = round((time.perf_counter() - started) * 1000, 3)
    return {"ok": True, "count": count, "records": records, "elapsed_ms": elapsed}


def harness():
    own_pid = os.getpid()
    os.dup2(1, 2)  # C-level stderr (warnings of extensions, faulthandler) joins the log
    out = LineWriter(1)
    sys.stdout = out
    sys.stderr = out
    # one line: JSON has no raw newline; then the rows' columns; a one-shot job ends with EOF
    job = read_job(sys.stdin.buffer)
    if job.get("session"):
        session(job, out, own_pid)
        return
    try:
        payload = run(job, out)
    except MemoryError:
        payload = {"ok": False, "kind": "memory", "error": "MemoryError"}
    out.finish()
    if os.getpid() != own_pid:
        os._exit(0)  # a process the strategy forked: only the harness itself answers
    send_result(payload)


if __name__ == "__main__":
    harness()
    os._exit(0)
