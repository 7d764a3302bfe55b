#!/usr/bin/env python3
"""pandas through a SQLAlchemy engine (psycopg 3), as an analyst uses it: DataFrame.to_sql
creating, replacing and appending to a table (its reflection of what exists, the CREATE
TABLE it writes, executemany and multi-row inserts), read_sql / read_sql_query with
parameters, read_sql_table (column reflection), chunked reads, and the values' types
coming back (integers, floats with NaN as NULL, text, booleans, timestamps, dates).
Usage: pandas_test.py HOST PORT
"""
import datetime
import sys

import numpy as np
import pandas as pd
import sqlalchemy as sa

from client_tests import run_tests

HOST, PORT = sys.argv[1], sys.argv[2]
ENGINE = sa.create_engine(f"postgresql+psycopg://postgres@{HOST}:{PORT}/postgres")

FRAME = pd.DataFrame({
    "id": [1, 2, 3],
    "name": ["apple", "banana", None],
    "price": [0.5, np.nan, 4.75],
    "ripe": [True, False, True],
    "picked": pd.to_datetime(["2026-01-01 08:00:00", "2026-02-03 04:05:06", "2026-03-04 00:00:00"]),
})


def drop(name):
    with ENGINE.begin() as conn:
        conn.execute(sa.text(f"DROP TABLE IF EXISTS {name}"))


def test_to_sql_and_read_back():
    drop("pd_fruit")
    FRAME.to_sql("pd_fruit", ENGINE, index=False)
    got = pd.read_sql("SELECT * FROM pd_fruit ORDER BY id", ENGINE)
    assert list(got.columns) == list(FRAME.columns), got.columns
    assert got["id"].tolist() == [1, 2, 3]
    assert [None if pd.isna(v) else v for v in got["name"]] == ["apple", "banana", None], got["name"]
    assert got["price"].iloc[0] == 0.5 and np.isnan(got["price"].iloc[1]) and got["price"].iloc[2] == 4.75
    assert got["ripe"].tolist() == [True, False, True]
    assert got["picked"].tolist() == FRAME["picked"].tolist(), got["picked"]
    drop("pd_fruit")


def test_replace_and_append():
    drop("pd_log")
    FRAME.to_sql("pd_log", ENGINE, index=False)
    # replace reflects the table, drops it and creates it again; append inserts more rows.
    FRAME.head(2).to_sql("pd_log", ENGINE, if_exists="replace", index=False)
    FRAME.to_sql("pd_log", ENGINE, if_exists="append", index=False, method="multi")
    FRAME.to_sql("pd_log", ENGINE, if_exists="append", index=False, chunksize=2)
    counts = pd.read_sql_query("SELECT id, count(*) AS n FROM pd_log GROUP BY id ORDER BY id", ENGINE)
    assert counts.values.tolist() == [[1, 3], [2, 3], [3, 2]], counts
    try:
        FRAME.to_sql("pd_log", ENGINE, if_exists="fail", index=False)
        raise AssertionError("if_exists='fail' wrote to an existing table")
    except ValueError:
        pass
    drop("pd_log")


def test_index_and_read_sql_table():
    drop("pd_indexed")
    frame = FRAME.set_index("id")
    frame.to_sql("pd_indexed", ENGINE, index=True, index_label="id")
    back = pd.read_sql_table("pd_indexed", ENGINE, index_col="id")
    assert back.index.tolist() == [1, 2, 3]
    assert list(back.columns) == ["name", "price", "ripe", "picked"], back.columns
    assert back.loc[3, "price"] == 4.75
    drop("pd_indexed")


def test_parameters_and_chunks():
    drop("pd_numbers")
    pd.DataFrame({"n": range(1000), "day": [datetime.date(2026, 1, 1) + datetime.timedelta(days=i % 30)
                                            for i in range(1000)]}).to_sql("pd_numbers", ENGINE, index=False)
    one = pd.read_sql_query(sa.text("SELECT n FROM pd_numbers WHERE n BETWEEN :lo AND :hi ORDER BY n"), ENGINE,
                            params={"lo": 10, "hi": 12})
    assert one["n"].tolist() == [10, 11, 12]
    total = 0
    chunks = 0
    for chunk in pd.read_sql_query("SELECT n FROM pd_numbers", ENGINE, chunksize=300):
        total += int(chunk["n"].sum())
        chunks += 1
    assert (total, chunks) == (999 * 1000 // 2, 4), (total, chunks)
    days = pd.read_sql_query("SELECT day, count(*) AS c FROM pd_numbers GROUP BY day ORDER BY day", ENGINE)
    assert len(days) == 30 and days["c"].sum() == 1000
    drop("pd_numbers")


TESTS = [test_to_sql_and_read_back, test_replace_and_append, test_index_and_read_sql_table, test_parameters_and_chunks]


if __name__ == "__main__":
    sys.exit(run_tests("pandas", TESTS))
