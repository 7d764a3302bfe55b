#!/usr/bin/env python3
"""SQLAlchemy 2 (psycopg 3 driver) against a server, as an application uses it: Core
(create_all with SERIAL primary keys, inserts with RETURNING, selects with joins, updates,
deletes, transactions), the ORM (a declarative model with a relationship, a session's
unit of work: inserts that fetch their generated keys, identity-map gets, updates,
cascaded deletes), and reflection: the inspector's tables, columns (types, nullability,
defaults, identity), primary keys, foreign keys, indexes and unique constraints, and
MetaData.reflect building Table objects that work.
Usage: sqlalchemy_test.py HOST PORT
"""
import sys

import sqlalchemy as sa
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, relationship

from client_tests import run_tests

HOST, PORT = sys.argv[1], int(sys.argv[2])
ENGINE = sa.create_engine(f"postgresql+psycopg://postgres@{HOST}:{PORT}/postgres")


def test_core():
    meta = sa.MetaData()
    warehouse = sa.Table("sa_warehouse", meta, sa.Column("id", sa.Integer, primary_key=True),
                         sa.Column("name", sa.String(20), nullable=False),
                         sa.Column("ytd", sa.Numeric(12, 2), server_default="0"))
    stock = sa.Table("sa_stock", meta, sa.Column("id", sa.BigInteger, primary_key=True),
                     sa.Column("w_id", sa.Integer, nullable=False), sa.Column("qty", sa.Integer))
    meta.drop_all(ENGINE)
    meta.create_all(ENGINE)
    try:
        with ENGINE.begin() as conn:
            ids = conn.execute(warehouse.insert().returning(warehouse.c.id),
                               [{"name": "north"}, {"name": "south"}]).scalars().all()
            assert ids == [1, 2], ids
            conn.execute(stock.insert(), [{"w_id": w, "qty": q} for w in ids for q in (5, 7)])
        with ENGINE.connect() as conn:
            rows = conn.execute(sa.select(warehouse.c.name, sa.func.sum(stock.c.qty))
                                .join(stock, stock.c.w_id == warehouse.c.id)
                                .group_by(warehouse.c.name).order_by(warehouse.c.name)).all()
            assert rows == [("north", 12), ("south", 12)], rows
            conn.execute(warehouse.update().where(warehouse.c.id == 1).values(ytd=warehouse.c.ytd + 10))
            conn.execute(stock.delete().where(stock.c.qty < 6))
            conn.rollback()  # nothing of that stays
            assert conn.execute(sa.select(sa.func.count()).select_from(stock)).scalar() == 4
            assert conn.execute(sa.select(warehouse.c.ytd).where(warehouse.c.id == 1)).scalar() == 0
        assert sorted(n for n in sa.inspect(ENGINE).get_table_names() if n.startswith("sa_")) == \
            ["sa_stock", "sa_warehouse"]
    finally:
        meta.drop_all(ENGINE)


class Base(DeclarativeBase):
    pass


class Customer(Base):
    __tablename__ = "sa_customer"
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(sa.String(30))
    orders: Mapped[list["Order"]] = relationship(back_populates="customer", cascade="all, delete-orphan")


class Order(Base):
    __tablename__ = "sa_order"
    id: Mapped[int] = mapped_column(sa.BigInteger, sa.Identity(always=True), primary_key=True)
    customer_id: Mapped[int] = mapped_column(sa.ForeignKey("sa_customer.id"))
    amount: Mapped[int]
    customer: Mapped[Customer] = relationship(back_populates="orders")


def test_orm():
    Base.metadata.drop_all(ENGINE)
    Base.metadata.create_all(ENGINE)
    try:
        with Session(ENGINE) as s:
            alice = Customer(name="alice", orders=[Order(amount=10), Order(amount=20)])
            bob = Customer(name="bob", orders=[Order(amount=5)])
            s.add_all([alice, bob])
            s.commit()
            assert (alice.id, bob.id) == (1, 2), (alice.id, bob.id)
            assert sorted(o.id for o in alice.orders) == [1, 2]
        with Session(ENGINE) as s:
            alice = s.get(Customer, 1)
            assert sum(o.amount for o in alice.orders) == 30
            alice.name = "alice b."
            alice.orders.append(Order(amount=1))
            s.commit()
            totals = s.execute(sa.select(Customer.name, sa.func.sum(Order.amount)).join(Customer.orders)
                               .group_by(Customer.name).order_by(Customer.name)).all()
            assert totals == [("alice b.", 31), ("bob", 5)], totals
            s.delete(s.get(Customer, 2))
            s.commit()
            assert s.scalar(sa.select(sa.func.count()).select_from(Order)) == 3
    finally:
        Base.metadata.drop_all(ENGINE)


def test_reflection():
    with ENGINE.begin() as conn:
        conn.execute(sa.text("DROP TABLE IF EXISTS refl_line"))
        conn.execute(sa.text("DROP TABLE IF EXISTS refl_order"))
        conn.execute(sa.text("CREATE TABLE refl_order (w integer, id integer GENERATED ALWAYS AS IDENTITY, "
                             "note varchar(20) NOT NULL DEFAULT 'new', total numeric(10,2), PRIMARY KEY (w, id))"))
        conn.execute(sa.text("CREATE TABLE refl_line (n serial PRIMARY KEY, w integer, oid integer, qty smallint, "
                             "CONSTRAINT refl_line_order FOREIGN KEY (w, oid) REFERENCES refl_order ON DELETE CASCADE, "
                             "CONSTRAINT refl_line_unique UNIQUE (w, oid, qty))"))
        conn.execute(sa.text("CREATE INDEX refl_line_qty ON refl_line (qty)"))
    try:
        insp = sa.inspect(ENGINE)
        assert {"refl_order", "refl_line"} <= set(insp.get_table_names())
        assert insp.has_table("refl_order") and not insp.has_table("refl_missing")
        cols = {c["name"]: c for c in insp.get_columns("refl_order")}
        assert list(cols) == ["w", "id", "note", "total"], list(cols)
        assert isinstance(cols["note"]["type"], sa.VARCHAR) and cols["note"]["type"].length == 20
        assert not cols["note"]["nullable"] and cols["note"]["default"].startswith("'new'"), cols["note"]
        assert isinstance(cols["total"]["type"], sa.NUMERIC) and cols["total"]["type"].scale == 2
        assert cols["id"]["identity"]["always"] is True, cols["id"]
        assert insp.get_pk_constraint("refl_order")["constrained_columns"] == ["w", "id"]
        fks = insp.get_foreign_keys("refl_line")
        assert [(f["name"], f["constrained_columns"], f["referred_table"], f["referred_columns"]) for f in fks] == [
            ("refl_line_order", ["w", "oid"], "refl_order", ["w", "id"])], fks
        assert fks[0]["options"].get("ondelete") == "CASCADE", fks
        indexes = {i["name"]: i["column_names"] for i in insp.get_indexes("refl_line")}
        assert indexes.get("refl_line_qty") == ["qty"], indexes
        uniques = insp.get_unique_constraints("refl_line")
        assert [(u["name"], u["column_names"]) for u in uniques] == [("refl_line_unique", ["w", "oid", "qty"])], uniques
        # Reflected tables work as Core tables.
        meta = sa.MetaData()
        meta.reflect(ENGINE, only=["refl_order", "refl_line"])
        order, line = meta.tables["refl_order"], meta.tables["refl_line"]
        with ENGINE.begin() as conn:
            oid = conn.execute(sa.insert(order).values(w=1, total=9.5).returning(order.c.id)).scalar_one()
            conn.execute(sa.insert(line).values(w=1, oid=oid, qty=3))
            joined = conn.execute(sa.select(order.c.note, line.c.qty).join_from(order, line)).all()
            assert joined == [("new", 3)], joined
    finally:
        with ENGINE.begin() as conn:
            conn.execute(sa.text("DROP TABLE IF EXISTS refl_line"))
            conn.execute(sa.text("DROP TABLE IF EXISTS refl_order"))


if __name__ == "__main__":
    sys.exit(run_tests("sqlalchemy", [test_core, test_orm, test_reflection]))
