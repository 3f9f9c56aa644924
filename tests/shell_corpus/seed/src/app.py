"""Entry point of the inventory service."""
import logging

from src.models import Item, Sale
from src.utils import parse_config, format_price

LOG = logging.getLogger(__name__)
VERSION = "1.4.2"


def create_app(config_path="config.ini"):
    config = parse_config(config_path)
    # TODO: validate the config
    LOG.info("starting on port %s", config["server"]["port"])
    return config


def total_sales(sales):
    return sum(s.units * s.price for s in sales)


def main():
    app = create_app()
    items = [Item("widget", 10), Item("gadget", 3)]
    for item in items:
        print(item.name, format_price(item.price))
    return app


if __name__ == "__main__":
    main()
