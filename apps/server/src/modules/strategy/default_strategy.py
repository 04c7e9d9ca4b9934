"""Moving-average crossover: the Default strategy.

main(data_array) receives the chart's bars, oldest first, as rows
    [date, code, period, open, high, low, close, volume]
and returns the trades as a list of dicts with
    open_date, close_date, open_price, close_price, lots, status
where status is 'YES' for a closed trade and 'NOT' for a trade still open at the end,
and lots is positive for a buy, negative for a sell. The server computes profits and
performance from these records; print() lines appear in the log.

PARAMS holds the tunable parameters with their defaults; an optimisation runs main with
other values in PARAMS, so main reads them from there.
"""

PARAMS = {
    "fast": 10,  # bars of the fast moving average
    "slow": 30,  # bars of the slow moving average
}
LOTS = 1  # size of every trade
MAX_PRINTED = 100  # trade lines printed to the log


def main(data_array):
    fast_length, slow_length = PARAMS["fast"], PARAMS["slow"]
    closes = [float(row[6]) for row in data_array]
    # prefix sums: the mean of any window in constant time
    sums = [0.0]
    for close in closes:
        sums.append(sums[-1] + close)

    def average(length, end):
        return (sums[end + 1] - sums[end + 1 - length]) / length

    trades = []
    position = None  # the open trade
    for i in range(slow_length, len(data_array)):
        fast, slow = average(fast_length, i), average(slow_length, i)
        fast_before, slow_before = average(fast_length, i - 1), average(slow_length, i - 1)
        crossed_up = fast_before <= slow_before and fast > slow
        crossed_down = fast_before >= slow_before and fast < slow
        if not (crossed_up or crossed_down):
            continue
        date, price = data_array[i][0], closes[i]
        if position is not None:  # reverse: close the open trade at this bar's close
            position.update(close_date=date, close_price=price, status="YES")
            trades.append(position)
        lots = LOTS if crossed_up else -LOTS
        position = {
            "open_date": date,
            "close_date": None,
            "open_price": price,
            "close_price": None,
            "lots": lots,
            "status": "NOT",
        }
        if len(trades) < MAX_PRINTED:
            side = "BUY" if lots > 0 else "SELL"
            print(f"{date} {side} {abs(lots)} at {price:.4f} (MA{fast_length} {fast:.4f}, MA{slow_length} {slow:.4f})")
    if position is not None:
        trades.append(position)
    print(f"{len(data_array)} bars, {len(trades)} trades")
    return trades
