from src.utils import format_price, slugify


def test_format_price():
    assert format_price(3) == "3.00"


def test_slugify():
    assert slugify(" Hello World ") == "hello-world"
