"""Per-query times of a run as a PNG: one group of bars per query, one bar per system (its
warm time, log scale), a tick at its first-run time; the title gives each system's warm
geometric mean over the queries all of them answered.

Used by run.py --plot FILE.png, or on a run's --json file:

  .venv/bin/python bench/analytics/plot.py /tmp/ch-w10.json /tmp/ch-w10.png

Needs matplotlib (.venv/bin/pip install matplotlib), imported only when a plot is made.
"""
import json
import math
import sys

COLORS = {"duetdb": "#1f77b4", "postgres": "#7f7f7f", "duckdb": "#ff7f0e"}


def geomean(values):
    return math.exp(sum(math.log(max(v, 1e-6)) for v in values) / len(values)) if values else None


def plot(path, title, results):
    """results: {query name: {system name: {"status", "first", "warm"} (seconds)}}."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    queries = list(results)
    names = list(next(iter(results.values()))) if results else []
    common = [q for q in queries if all(results[q][n]["status"] == "ok" for n in names)]
    means = {n: geomean([results[q][n]["warm"] for q in common]) for n in names}
    fig, ax = plt.subplots(figsize=(min(16, max(8, 0.22 * len(queries) * len(names))), 5))
    width = 0.8 / max(1, len(names))
    for i, n in enumerate(names):
        xs, warm, first = [], [], []
        for x, q in enumerate(queries):
            r = results[q][n]
            if r["status"] != "ok":
                continue
            xs.append(x + (i - (len(names) - 1) / 2) * width)
            warm.append(1000 * r["warm"])
            first.append(1000 * r["first"])
        label = f"{n} (warm geomean {1000 * means[n]:.1f} ms)" if means[n] else n
        ax.bar(xs, warm, width, label=label, color=COLORS.get(n))
        ax.scatter(xs, first, marker="_", s=60, color="black", zorder=3)
    ax.set_yscale("log")
    ax.set_ylabel("ms (bars: warm; ticks: first run)")
    ax.set_xticks(range(len(queries)))
    ax.set_xticklabels(queries)
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv):
    if len(argv) != 2:
        sys.exit("usage: plot.py RUN.json OUT.png")
    with open(argv[0]) as f:
        run = json.load(f)
    plot(argv[1], run["benchmark"], run["results"])


if __name__ == "__main__":
    main(sys.argv[1:])
