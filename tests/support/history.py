"""A git repository made with the ``git`` command for the history tests.

Five commits by three authors on fixed dates: a file added (with a binary logo),
a method changed and a function added, a function deleted, the file renamed (and
the logo changed), and the method changed again under the new name.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

ALICE = ("Alice Liddell", "alice@example.org")
BOB = ("Bob Builder", "bob@builders.test")
CAROL = ("Carol Danvers", "carol@example.org")

MODELS_1 = """\
class Order:
    def __init__(self, items):
        self.items = items

    def total(self):
        return sum(self.items)


def helper(x):
    return x * 2
"""

MODELS_2 = """\
class Order:
    def __init__(self, items):
        self.items = items

    def total(self):
        return sum(item.price for item in self.items)


def helper(x):
    return x * 2


def discount(order, rate):
    return order.total() * (1 - rate)
"""

MODELS_3 = """\
class Order:
    def __init__(self, items):
        self.items = items

    def total(self):
        return sum(item.price for item in self.items)


def discount(order, rate):
    return order.total() * (1 - rate)
"""

ORDERS_5 = """\
class Order:
    def __init__(self, items):
        self.items = items

    def total(self):
        return round(sum(item.price for item in self.items), 2)


def discount(order, rate):
    return order.total() * (1 - rate)
"""


@dataclass(frozen=True)
class HistoryRepo:
    root: Path
    commits: list[str]  # oldest first


def git(root: Path, *args: str, author: tuple[str, str] = ALICE, date: str = "") -> str:
    env = dict(
        os.environ,
        GIT_AUTHOR_NAME=author[0],
        GIT_AUTHOR_EMAIL=author[1],
        GIT_COMMITTER_NAME=author[0],
        GIT_COMMITTER_EMAIL=author[1],
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_CONFIG_NOSYSTEM="1",
    )
    if date:
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = date
    done = subprocess.run(
        ["git", "-C", str(root), *args], env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def commit(root: Path, message: str, author: tuple[str, str], date: str) -> str:
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", message, author=author, date=date)
    return git(root, "rev-parse", "HEAD")


def make_history_repo(root: Path) -> HistoryRepo:
    (root / "shop").mkdir(parents=True)
    git(root, "init", "-q", "-b", "main")
    models = root / "shop" / "models.py"
    logo = root / "logo.png"
    models.write_text(MODELS_1)
    logo.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    commits = [commit(root, "Add the order model", ALICE, "2024-01-10T10:00:00Z")]
    models.write_text(MODELS_2)
    commits.append(commit(root, "Price-based totals and a discount", BOB, "2024-02-15T12:00:00Z"))
    models.write_text(MODELS_3)
    commits.append(commit(root, "Remove the unused helper", ALICE, "2024-03-20T09:30:00Z"))
    git(root, "mv", "shop/models.py", "shop/orders.py")
    logo.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(255, -1, -1)))
    commits.append(commit(root, "Rename models to orders, new logo", CAROL, "2024-04-25T16:45:00Z"))
    (root / "shop" / "orders.py").write_text(ORDERS_5)
    commits.append(commit(root, "Round totals to cents", BOB, "2024-05-30T08:15:00Z"))
    return HistoryRepo(root, commits)
