"""Data classes for the inventory."""
from dataclasses import dataclass


@dataclass
class Item:
    name: str
    price: float
    stock: int = 0


@dataclass
class Sale:
    item: Item
    units: int
    price: float

    def total(self):
        return self.units * self.price
