from src.models import Item, Sale


def test_total():
    sale = Sale(Item("widget", 2.5), 4, 2.5)
    assert sale.total() == 10.0
