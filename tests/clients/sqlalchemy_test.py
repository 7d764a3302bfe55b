#!/usr/bin/env python3
"""SQLAlchemy 2 (psycopg 3 driver) against a server, as an application uses it: Core
(create_all with SERIAL primary keys, inserts with RETURNING, selects with joins, updates,
deletes, transactions), the ORM (a declarative model with a relationship, a session's
unit of work: inserts that fetch their generated keys, identity-map gets, updates,
cascaded deletes), and the inspector's table list.
Usage: sqlalchemy_test.py HOST PORT
"""
import sys
import traceback

import sqlalchemy as sa
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, relationship

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


def main():
    failed = 0
    tests = [test_core, test_orm]
    for t in tests:
        try:
            t()
            print(f"ok   {t.__name__}")
        except Exception:
            failed += 1
            print(f"FAIL {t.__name__}")
            traceback.print_exc()
    print(f"sqlalchemy: {len(tests) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
