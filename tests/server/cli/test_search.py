"""``symfuse search`` through the installed command: one test per request field, the three
output formats, and TOON decoding to exactly the JSON answer."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import toon_format

from tests.support.cli import run_symfuse
from tests.support.paths import FIXTURES

pytestmark = pytest.mark.slow  # each test runs the installed symfuse command

WORKSPACE = FIXTURES / "workspace"


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("search-index")
    run_symfuse(["index", str(WORKSPACE), "--index-dir", str(directory), "--no-progress"])
    return directory


def search(index_dir: Path, query: str, *options: str) -> dict[str, Any]:
    result = run_symfuse(
        ["search", query, str(WORKSPACE), *options, "--index-dir", str(index_dir), "-f", "json"]
    )
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def names(data: dict[str, Any]) -> list[str]:
    return [item["name"] for item in data["items"]]


def test_query(index_dir: Path) -> None:
    data = search(index_dir, "process_payment")
    assert names(data)[0] == "process_payment"
    assert data["search_mode"] == "single"
    assert data["query"] == "process_payment"


def test_root_option(index_dir: Path) -> None:
    result = run_symfuse(
        ["search", "slugify", "--root", str(WORKSPACE), "--index-dir", str(index_dir), "-f", "json"]
    )
    assert json.loads(result.stdout)["items"][0]["name"] == "slugify"


def test_kind(index_dir: Path) -> None:
    data = search(index_dir, "user", "--kind", "class", "--kind", "interface", "--limit", "50")
    assert {i["kind"] for i in data["items"]} <= {"class", "interface", "struct", "trait"}
    assert "User" in names(data)


def test_class_matches_structs_and_struct_only_them(index_dir: Path) -> None:
    """Asked for a class in Go (or Rust, C, Zig), one means its struct."""
    classes = search(index_dir, "Server", "--kind", "class", "--language", "go")
    assert names(classes)[0] == "Server"
    assert classes["items"][0]["kind"] == "struct"
    structs = search(index_dir, "user", "--kind", "struct", "--limit", "50")
    assert {i["kind"] for i in structs["items"]} <= {"struct"}
    assert "User" not in names(structs)  # a class is not a struct


def test_language(index_dir: Path) -> None:
    data = search(index_dir, "user", "--language", "typescript", "--limit", "50")
    assert data["items"]
    assert {i["file"] for i in data["items"]} == {"web/client.ts"}


def test_file_pattern(index_dir: Path) -> None:
    data = search(index_dir, "charge", "--file-pattern", "shop/services/*.py", "--limit", "50")
    assert {i["file"] for i in data["items"]} <= {
        "shop/services/payment.py",
        "shop/services/email.py",
    }


def test_exclude_path(index_dir: Path) -> None:
    data = search(index_dir, "user", "--exclude-path", "web", "--limit", "100")
    assert data["items"]
    assert not any(i["file"].startswith("web/") for i in data["items"])


def test_implements(index_dir: Path) -> None:
    data = search(index_dir, "gateway", "--implements", "PaymentGateway")
    assert set(names(data)) == {"StripeGateway", "FakeGateway"}


def test_extends(index_dir: Path) -> None:
    assert names(search(index_dir, "user", "--extends", "User")) == ["AdminUser"]


def test_decorator(index_dir: Path) -> None:
    assert names(search(index_dir, "user", "--decorator", "cached")) == ["get_user_by_id"]


def test_fuzzy(index_dir: Path) -> None:
    forced = search(index_dir, "process_payment", "--fuzzy")
    assert "fuzzy" in forced["channels"]
    off = search(index_dir, "proces_paymnet", "--no-fuzzy")
    assert "fuzzy" not in off["channels"]
    auto = search(index_dir, "proces_paymnet")
    assert "fuzzy" in auto["channels"]
    assert names(auto)[0] == "process_payment"


def test_fuzzy_threshold(index_dir: Path) -> None:
    loose = search(index_dir, "proces_paymnet", "--semantic", "off", "--limit", "100")
    strict = search(
        index_dir, "proces_paymnet", "--semantic", "off", "--fuzzy-threshold", "1", "--limit", "100"
    )
    assert "process_payment" in names(loose)
    assert "process_payment" not in names(strict)


def test_max_edit_distance(index_dir: Path) -> None:
    data = search(
        index_dir,
        "proces_paymnet",
        "--semantic",
        "off",
        "--max-edit-distance",
        "0",
        "--limit",
        "100",
    )
    assert "process_payment" not in names(data)


def test_semantic(index_dir: Path) -> None:
    assert "similarity" not in search(index_dir, "payment", "--semantic", "off")["channels"]
    only = search(index_dir, "money back for a transaction", "--semantic", "only")
    assert only["channels"] == ["similarity"]
    assert only["semantic"] == "only"


def test_semantic_weight(index_dir: Path) -> None:
    zero = search(index_dir, "payment", "--semantic-weight", "0")
    assert "similarity" not in zero["channels"]
    one = search(index_dir, "payment", "--semantic-weight", "1", "--fusion-debug")
    assert one["weights"]["similarity"] == pytest.approx(1.0)


def test_fusion(index_dir: Path) -> None:
    data = search(index_dir, "getUser", "--no-fusion")
    assert "structural" not in data["channels"]
    assert names(data)[0] == "getUserById"


def test_fusion_weights(index_dir: Path) -> None:
    data = search(
        index_dir, "payment", "--fusion-weights", "lexical=1,identity=1", "--fusion-debug"
    )
    weights = data["weights"]
    assert weights["lexical"] == pytest.approx(weights["identity"])
    assert weights["structural"] == pytest.approx(0.25 / 2.45, abs=1e-5)
    as_json = search(index_dir, "payment", "--fusion-weights", '{"similarity": 0}')
    assert "similarity" not in as_json["channels"]


def test_fusion_debug(index_dir: Path) -> None:
    data = search(index_dir, "send email", "--fusion-debug", "--limit", "3")
    item = data["items"][0]
    for channel in ("lexical", "structural", "similarity", "identity", "fuzzy"):
        assert f"{channel}_rank" in item
        assert f"{channel}_contribution" in item
    assert "boost" in item
    assert sum(data["weights"].values()) == pytest.approx(1.0, abs=1e-5)


def test_limit_and_offset(index_dir: Path) -> None:
    everything = names(search(index_dir, "user", "--limit", "30"))
    page = search(index_dir, "user", "--limit", "4", "--offset", "4")
    assert names(page) == everything[4:8]
    assert (page["limit"], page["offset"]) == (4, 4)


def test_mode(index_dir: Path) -> None:
    tiered = search(index_dir, "payment gateway", "--mode", "tiered")
    assert set(tiered["tiers"]) == {"high", "medium", "low"}
    flat = search(index_dir, "order total", "--mode", "flat")
    assert flat["channels"] == ["lexical"]
    got = search(index_dir, "shop/services/payment.py::process_payment#function", "--mode", "get")
    assert names(got) == ["process_payment"]
    auto = search(index_dir, "shop/utils/text.py")
    assert auto["search_mode"] == "get"


def test_drill_from(index_dir: Path) -> None:
    data = search(
        index_dir,
        "charge",
        "--mode",
        "drill",
        "--drill-from",
        "shop/services/payment.py::FakeGateway#class",
    )
    assert next(i["symbol_id"] for i in data["items"]) == (
        "shop/services/payment.py::FakeGateway.charge#method"
    )
    assert all(i["fqn"].startswith("shop.services.payment.FakeGateway") for i in data["items"])


def test_detail_level(index_dir: Path) -> None:
    minimal = search(index_dir, "Order", "--detail-level", "minimal")["items"][0]
    assert list(minimal) == ["symbol_id", "name", "kind", "file", "line", "repository"]
    full = search(index_dir, "AdminUser", "--detail-level", "full")["items"][0]
    assert full["extends"] == "User"
    assert full["doc"].startswith("A staff member")


def test_output_format_table(index_dir: Path) -> None:
    """The scored table is ``-f table`` (the text form is location lines: test_locations)."""
    where = [str(WORKSPACE), "--index-dir", str(index_dir)]
    result = run_symfuse(["search", "slugify", *where, "--limit", "3", "-f", "table"])
    lines = result.stdout.splitlines()
    assert lines[0].split()[:3] == ["SCORE", "KIND", "NAME"]
    assert "slugify" in lines[1]
    assert "mode single" in lines[-1]


@pytest.mark.parametrize(
    "extra",
    [
        [],
        ["--detail-level", "full"],
        ["--fusion-debug"],
        ["--mode", "tiered"],
        ["--detail-level", "minimal", "--mode", "get"],
    ],
)
def test_toon_decodes_to_exactly_the_json(index_dir: Path, extra: list[str]) -> None:
    query = "shop/models.py" if "get" in extra else "user"
    common = [query, str(WORKSPACE), "--index-dir", str(index_dir), *extra]
    as_json = json.loads(run_symfuse(["search", *common, "-f", "json"]).stdout)
    as_toon = run_symfuse(["search", *common, "--output-format", "toon"]).stdout
    assert toon_format.decode(as_toon) == as_json
    # Every item has every field, so the items are one table.
    assert "{symbol_id,name,kind" in as_toon


def test_invalid_field_exits_two_and_names_it(index_dir: Path) -> None:
    result = run_symfuse(
        ["search", "x", str(WORKSPACE), "--index-dir", str(index_dir), "--limit", "0"],
        check=False,
    )
    assert result.returncode == 2
    assert result.stderr.strip() == "symfuse: error: limit: must be between 1 and 1000"
    assert result.stdout == ""
    bad = run_symfuse(
        ["search", "x", str(WORKSPACE), "--index-dir", str(index_dir), "--kind", "klass"],
        check=False,
    )
    assert bad.returncode == 2
    assert bad.stderr.startswith("symfuse: error: kind: 'klass' is not one of")
    missing = run_symfuse(
        ["search", "x", str(WORKSPACE), "--index-dir", str(index_dir), "--mode", "drill"],
        check=False,
    )
    assert missing.returncode == 2
    assert "drill_from" in missing.stderr


def test_who_calls_is_answered_from_the_call_graph(index_dir: Path) -> None:
    data = search(index_dir, "who calls calculate_total")
    assert data["search_mode"] == "callers"
    assert data["intent"] == {"direction": "callers", "target": "calculate_total"}
    assert data["targets"] == ["shop/models.py::Order.calculate_total#method"]
    assert {row["file"] for row in data["items"]} >= {
        "shop/services/email.py",
        "shop/services/payment.py",
    }
    sites = " ".join(row["sites"] for row in data["items"])
    assert "shop/services/payment.py:59:" in sites


def test_prose_snippets_and_include_tests(tmp_path: Path) -> None:
    """The text table shows each hit's snippet under its row; include_tests picks the code."""
    prose = FIXTURES / "prose_workspace"
    query = "prompt the user for a password and hide the input"
    base = ["search", query, str(prose), "--index-dir", str(tmp_path / "index")]
    table = run_symfuse([*base, "--snippet-lines", "2", "--limit", "3", "-f", "table"]).stdout
    lines = table.splitlines()
    assert lines[1].split()[1:3] == ["function", "prompt"]
    assert lines[2].startswith("    │ ")
    assert lines[3].startswith("    │ ")
    text = run_symfuse([*base, "--snippet-lines", "2", "--limit", "3"]).stdout
    lines = text.splitlines()
    assert lines[0].endswith(": prompt function")  # a location line, its snippet under it
    assert lines[1].startswith("    │ ")
    assert lines[2].startswith("    │ ")
    only = json.loads(run_symfuse([*base, "--include-tests", "only", "-f", "json"]).stdout)
    assert {item["file"] for item in only["items"]} <= {
        "tests/test_termui.py",
        "examples/password.py",
    }
    bad = run_symfuse([*base, "--include-tests", "maybe"], check=False)
    assert bad.returncode == 2
    assert "--include-tests" in bad.stderr


def test_kind_and_language_aliases(index_dir: Path) -> None:
    """The vocabulary the language server's filters take works in the CLI too."""
    aliased = search(index_dir, "user", "--kind", "cls,iface", "--language", "ts", "--limit", "50")
    spelled = search(
        index_dir, "user", "--kind", "class,interface", "--language", "typescript", "--limit", "50"
    )
    assert aliased["items"]
    assert names(aliased) == names(spelled)
    by_extension = search(index_dir, "user", "--language", ".ts", "--limit", "50")
    typescript = search(index_dir, "user", "--language", "typescript", "--limit", "50")
    assert names(by_extension) == names(typescript)


def test_method_matches_constructors_and_constructor_only_them(index_dir: Path) -> None:
    methods = search(index_dir, "__init__", "--kind", "method", "--limit", "50")
    constructors = search(index_dir, "__init__", "--kind", "ctor", "--limit", "50")
    assert {i["kind"] for i in constructors["items"]} == {"constructor"}
    assert "constructor" in {i["kind"] for i in methods["items"]}
    ids = {i["symbol_id"] for i in methods["items"]}
    assert {i["symbol_id"] for i in constructors["items"]} <= ids
    plain = search(index_dir, "save", "--kind", "method", "--limit", "50")
    assert "method" in {i["kind"] for i in plain["items"]}


def test_unknown_kind_and_language_name_the_choices(index_dir: Path) -> None:
    result = run_symfuse(
        ["search", "user", str(WORKSPACE), "--kind", "klass", "--index-dir", str(index_dir)],
        check=False,
    )
    assert result.returncode != 0
    assert "ctor (constructor)" in result.stderr
    result = run_symfuse(
        ["search", "user", str(WORKSPACE), "--language", "pyy", "--index-dir", str(index_dir)],
        check=False,
    )
    assert result.returncode != 0
    assert "unknown language 'pyy'" in result.stderr


def test_a_name_nothing_defines_and_no_match_are_said(index_dir: Path) -> None:
    def run(query: str, *options: str) -> Any:
        return run_symfuse(
            ["search", query, str(WORKSPACE), "--index-dir", str(index_dir), *options]
        )

    missing = run("process_refund")
    assert missing.stdout.strip()  # the nearest names still answer
    assert "symfuse: no definition is named process_refund; the nearest first" in missing.stderr
    assert json.loads(run("process_refund", "-f", "json").stdout)["hint"].startswith(
        "no definition is named process_refund"
    )
    found = run("process_payment")
    assert "no definition" not in found.stderr
    assert "hint" not in json.loads(run("process_payment", "-f", "json").stdout)
    nothing = run("zqxjvw")
    assert nothing.returncode == 0
    assert nothing.stdout == ""  # no blank line for vim -q or a pipe
    assert nothing.stderr.strip() == "symfuse: no match"
