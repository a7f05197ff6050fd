"""Rust items inside item-level macro invocations (issue 35, item 1): the invocation's head
and closing brace are blanked byte for byte, past braces in strings, raw strings,
characters and comments, and only where an item could stand."""

from __future__ import annotations

from symfuse.indexer.extract.rust_macros import closing_brace, open_item_macros
from symfuse.indexer.extract.tags import extract

SOURCE = rb"""cfg_rt! {
    /// Spawns a task.
    pub fn spawn<'a>(name: &'a str) -> usize {
        let open = '{';
        let text = "}}} { \" }";
        let raw = r##"} "# }"##;
        /* a } in /* a nested */ comment */
        // and } in a line comment
        name.len()
    }
}

impl Handle {
    cfg_rt! {
        pub fn block_on(&self) {}
    }
}

fn body() {
    quote! {
        fn generated() {}
    }
}

forward_to_deserialize_any! {
    bool i8 i16
}
"""


def names(source: bytes) -> list[str]:
    return [s.fqn for s in extract("lib.rs", "root", "rust", source).symbols if s.kind != "file"]


def test_items_inside_macros_are_definitions() -> None:
    found = names(SOURCE)
    assert "spawn" in found
    assert "Handle.block_on" in found
    assert "body.generated" not in found  # a macro inside a function keeps its tokens


def test_the_rewrite_keeps_every_byte_position() -> None:
    out = open_item_macros(SOURCE)
    assert len(out) == len(SOURCE)
    assert [i for i, b in enumerate(SOURCE) if b == 0x0A] == [
        i for i, b in enumerate(out) if b == 0x0A
    ]
    assert out.startswith(b" " * len(b"cfg_rt! {"))
    assert b"forward_to_deserialize_any! {" in out  # its body is not items


def test_the_closing_brace_skips_strings_characters_and_comments() -> None:
    end = closing_brace(SOURCE, SOURCE.index(b"{"))
    assert end is not None
    assert SOURCE[end - 1 : end + 1] == b"\n}"
    assert SOURCE[:end].count(b"\n") == 10
    assert closing_brace(b"m! { unclosed", 3) is None


def test_empty_generics_in_an_item_macro_keep_the_impl() -> None:
    """tokio's ``generate_addr_of_methods! { impl<> Waiter { ... } }``: the grammar wants
    a parameter between ``<>``, so the impl and its method were a syntax error."""
    source = b"""struct Waiter { pointers: u8 }

generate_addr_of_methods! {
    impl<> Waiter {
        unsafe fn addr_of_pointers(self: NonNull<Self>) -> NonNull<u8> {
            &self.pointers
        }
    }
}
"""
    found = extract("tokio/src/sync/notify.rs", ".", "rust", source)
    assert found.problems == []
    assert "Waiter.addr_of_pointers" in {s.fqn for s in found.symbols}


def test_a_macros_own_syntax_after_an_item_is_blanked() -> None:
    """hyper's ``ffi_fn! { fn name() -> T { ... } ?= ptr::null() }``: opened, the tail
    after the function's brace made the file one syntax error from its first line (and
    kept fewer definitions than the unopened token trees had); an item's own ``} else {``
    and a nested macro's ``} => {`` stay as written."""
    source = b"""ffi_fn! {
    /// Creates a new task executor.
    fn hyper_executor_new() -> *const hyper_executor {
        if ready() {
            Arc::into_raw(hyper_executor::new())
        } else {
            ptr::null()
        }
    } ?= ptr::null()
}

ffi_fn! {
    fn hyper_executor_free(exec: *const hyper_executor) {
        drop(exec);
    }
}

cfg_macros! {
    macro_rules! pick {
        ($e:expr) => {
            $e
        };
    }
}
"""
    opened = open_item_macros(source)
    assert b"?=" not in opened
    assert b"} else {" in opened
    assert b"($e:expr) => {" in opened
    found = extract("src/ffi/task.rs", ".", "rust", source)
    assert found.problems == []
    assert {"hyper_executor_new", "hyper_executor_free"} <= {s.fqn for s in found.symbols}
