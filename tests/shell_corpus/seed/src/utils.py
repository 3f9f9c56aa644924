"""Helpers shared by the service."""
import configparser


def parse_config(path):
    parser = configparser.ConfigParser()
    parser.read(path)
    return {s: dict(parser[s]) for s in parser.sections()}


def format_price(value):
    # FIXME: use Decimal instead of float
    return "%.2f" % value


def slugify(text):
    return text.strip().lower().replace(" ", "-")
