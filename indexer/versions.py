"""The format versions that stored extractions and edges are keyed on.

Bump a version whenever what its code produces changes; an index stored with
another value is then re-extracted (``EXTRACTOR_VERSION``, every language) or
relinked (``LINKER_VERSION``) at its next update. Editing a comment or moving
code between modules changes nothing stored, so it needs no bump.

The constants live here rather than in the modules they version because every
``symfuse index`` compares them, and that command must not import the parser or
the linker when nothing changed. The queries are data and are not versioned
here: :func:`symfuse.indexer.config.extractor_fingerprint` hashes each language's
``.scm`` text, so a changed query re-extracts only its language.
"""

from __future__ import annotations

# Bump when the output of extraction changes: symbols, references or problems that
# extract/tags.py, definitions.py, texts.py or prepass.py yield for the same bytes.
# 6: declared source encodings (PEP 263, UTF-16/32 byte order marks); headings without markup.
# 8: names as values: dict and set members, defaults, comparisons, this.member, TS types.
# 9: a file unit per code file (extract/units.py).
# 10: Haskell functions from signature to last equation, Haddock docs; Teal files.
# 11: Haskell operators (`(.:?) = ...`, `a .:! b = ...`, class method operators); Swift
#     conditional compilation inside type bodies read (directive lines blanked).
# 12: a variable named `local` is no longer taken for the mark of a name a function binds.
# 13: Rust items declared inside item-level macro invocations (`cfg_rt! { pub fn spawn }`).
# 14: Teal files read as the Lua they compile to (types blanked, extract/teal.py).
# 15: C/C++ macros alone on a line, as a template's last parameter, CONSTEXPR20-like ones.
# 16: Elixir `@doc ~S"""..."""` sigils and docs of guarded clauses (`def f(x) when ...`).
# 17: JavaScript/TypeScript calls of `#private` methods (`this.#retry()`, `ky.#fetch()`).
# 18: Haskell instances as objects named after their type, their equations its methods.
# 19: Go variables holding a call's result (`engine := router.New()`) are declarations.
# 20: Java/C#/Kotlin variables holding a call's result (`var doc = c.clean(d)`) and Java
#     `var x = (T) y` are declarations; Java's `var` is not a type a variable is declared with.
# 21: Java/C#/Kotlin/C++/TypeScript calls record how many arguments they pass (issue 36).
# 22: Kotlin parameters and typed variables name their variable (`@alias`): typed receivers.
# 23: JavaScript/TypeScript CommonJS named imports: `var f = require('./m').f` and
#     `const { f, g: h } = require('./m')`.
# 24: a doc comment the grammar hangs on the node before a definition (Kotlin's import
#     list, Haskell's, a YAML mapping) is the definition's doc; OCaml `(** ... *)` marks.
# 25: regions, code outside every definition in pieces (extract/units.py).
# 26: regions: a triple-quoted string inside a definition no longer closes open lines below.
# 27: a region encloses the file-level references in its lines (callers, usages, impact).
# 28: Python names as operands and indexes (`SUB_DELIMS + safe`, `x[KEY]`, `f"{PREFIX}"`)
#     are references; a name a function declares `global` is the module's, not a local.
# 29: JavaScript/TypeScript indexes (`TABLE[KEY]`) and Rust values before a dot
#     (`REGISTRY.lock()`) are references.
# 30: Kotlin names as values (operands, indexes, initializers, returns, string templates,
#     loops, `when`) are references; a function's parameters and locals are its own.
# 31: the same for Swift (and its @local bindings); Ruby and PHP constants as values
#     (`n + LIMIT`, `TABLE[KEY]`, `"#{PREFIX}"`, `Foo::BAR`, `K::PREFIX`); C++ indexes.
# 32: Lua (and Teal) names as values (operands, indexes, fields, conditions, loop
#     bounds); a function's parameters, locals and loop variables are its own.
# 33: the same for Scala (operands, interpolations, initializers, conditions, matches).
# 34: the same for Zig (every bare name as an expression, a name indexed).
# 35: the same for Dart (operands, interpolations, initializers, indexes, arrow bodies;
#     @local bindings); C# interpolations (`$"{Prefix}"`).
# 36: C, C++, CUDA and Objective-C macros the preprocessor tests (`#ifdef`, `#ifndef`,
#     `defined(...)`, `#if NAME`, `#elif NAME`) are references.
# 37: a quoted identifier (Swift's `protocol`, Kotlin's `my test`) is named without its
#     backticks, in definitions and references.
# 38: a Haskell module's export list names what it exports (references); operators
#     applied (`a <^> b`, a function between backticks, `(<^>) a`) are calls.
# 39: an Elixir module attribute read (`@default_timeout`) is a reference; a local call as a
#     clause's body (`-> bad_return!(x)`), in a list, a tuple or an interpolation is a call.
# 40: a Zig file's `const Name = @This();` is a struct (the file's), not a variable.
# 41: a Swift parameter's or property's declared type, and the constructor call that
#     initialises a property (`let session = Session()`), name the variable (`@alias`).
# 42: a Go struct's embedded types and an interface's embedded interfaces are its bases
#     (`extends`): `type Engine struct { RouterGroup }`.
# 43: of two patterns reading one name as the same kind, the one with its qualifier is
#     kept (`options[k] = self.select` is `self.select`, not a bare `select`).
# 44: a Go value before a dot (`quoteEscaper.Replace(s)`, `bufPool.Get()`) is a reference.
# 45: the same for Java (a field or variable in lower case before a dot), Ruby (a constant
#     before a dot: `REGISTRY.fetch(k)`) and PHP (a static property: `self::$registry`).
# 46: a Python property tested (`if url.is_relative_url:`, `not r.is_error`, operands of
#     `and`/`or`/comparisons, asserts) and a Kotlin value as an `if`/`while` condition.
# 47: a JSX expression's name (`onClick={handleCopy}`) and a Lua value before a colon
#     (`template:gsub(...)`) are references.
# 48: an Elixir type named in a `@spec` or `@callback` (its arguments, its result or a
#     tuple of it) is a type reference.
# 49: a C# generic type in `typeof` (`typeof(Wrapper<>)`, `typeof(Handler<,>)`) is a type
#     reference.
# 50: a Kotlin property read after a dot (`fileSystem.isFakeFileSystem`, `buffer.size`).
# 51: a name a function binds and also defines there (`def wrapper(): ...` then `wrapper =
#     wraps(f)(wrapper)`) keeps its uses; Ruby's bare names (`@free`, ruby.scm).
# 52: a C# file whose `#if` the grammar cannot place (a base list, an expression) parsed
#     as one build of it (extract/conditionals.py).
# 53: a C# definition's signature leaves out the `#if` / `#else` / `#endif` lines in its head.
# 54: a file is reported with syntax errors only when its tree holds an error node.
# 55: a C++ member defined outside its class is qualified by the namespace around it and
#     every scope written before its name (`namespace ns { void Foo::f() {} }`: `ns.Foo.f`,
#     was `ns.f`).
# 56: C++: the variable a type declares (`backtracer tracer_;`), a call's arguments after
#     template arguments (`encode<int>()`); exception and `if constexpr` macros blanked.
# 57: C and C++: Clang's thread-safety annotations blanked (`GUARDED_BY(mu_)`, ...).
# 58: C++: a member function passed by address (`&DBImpl::BGWork`) is a reference; a
#     definition's own qualified name is none.
# 59: a C++ scope that is not a name (a misparse's whole class) no longer qualifies a
#     definition; no name or qualified name holds a line break.
# 60: C and C++: an empty braced default argument (`= {}`), `*_CONSTEXPR_FUNC` and a macro
#     as an array's initializer read.
# 61: C++: Catch2 and doctest test cases (`TEST_CASE("a", "[t]") {`) and sections read.
# 62: Zig: destructuring declarations (`const a, const b = f();`) read.
# 63: Kotlin: a primary constructor on the line after its class head, `actual val` parameters.
# 64: Swift: `nonisolated(unsafe)`, `sending` parameters, `()` as an argument read.
# 65: C and C++: `extern "C" {` under `#ifdef __cplusplus`, `va_arg(ap, T)`, `*_CAPI` read.
# 66: C and C++: access-specifier macros, a macro call before `}`, one-word `#if` branches.
# 67: TypeScript variance after a comment; Rust `impl<>`.
# 68: a file's syntax-error problem names the line of its first error.
# 69: Scala: a parent's empty argument list before another (`ListEq[A]()(ev)`).
# 70: C and C++: keyword casts (`unsigned(x)`), anonymous enum bases, `x G_GNUC_UNUSED)`.
# 71: C and C++: `extern "C"` braces blanked in pairs only (a closing block may hold more).
# 72: Ruby: `class Sinatra::Base` is Base in Sinatra (name Base, fqn Sinatra.Base).
# 73: test harness and test utility folders are test code (no regions).
# 74: amalgamated copies (`single_include/`, `amalgamation/`) are vendored (no regions).
# 75: folders named for tests among other words (`integration_test`, `okhttp-testing-support`)
# hold test code (no regions).
# 76: C and C++: a field macro alone before a struct's `};`, `*_EXTERN` before a declaration.
# 77: Kotlin: annotations before a primary constructor on the line after its class head;
#     Swift: typed throws (`throws(E)`), a property wrapper's empty arguments (`@Option()`).
# 78: Rust: a macro's own syntax after an item's closing brace in an opened item macro.
# 79: C and C++: conditionals inside parentheses or template arguments read as their first
#     branch, `enable_if` constraints' arguments blanked, `*_EXPLICIT` before a declaration.
# 80: Haskell: an escaped character literal before a name with a prime.
# 81: C and C++: a conditional that splits a statement read as its first branch, a string
#     continued inside a conditional, a brace-less `extern "C"` under `#ifdef __cplusplus`.
# 82: C and C++: such a conditional read with its `#else` branch's head (`main`, not `umain`).
# 83: C and C++: a directive line or a macro's continued line ends no list's element.
EXTRACTOR_VERSION = 83

# Bump when reference resolution changes: the edges that link/graph.py, resolve.py or
# bindings.py make from the same symbols and references.
# 6: file units are not nodes of the PageRank graph (rank 0).
# 7: receivers by declared type, type and package qualifiers, imports by path (Go, Java,
#    Rust, C#, C), `self.f()` inside `f`, Resolution.how.
# 8: receivers typed in Python, JavaScript and TypeScript: annotations, constructors,
#    calls whose result a variable holds (by the callee's written return type), `self.x`.
# 9: the graph's edges resolve members of declared receivers per enclosing definition,
#    as usages do (callers and impact no longer list guesses that usages rule out).
# 10: Python and JavaScript literals as receivers are builtin values; a return type written
#     after a multi-line parameter list; Python annotations typing.Mapping[...], X | None.
# 11: a method returning Self (Python) or this (TypeScript) returns its own class.
# 12: a script's receiver typed by a name imported from a package is unknown, not outside.
# 13: a bare name links inside its own repository (workspace root) only.
# 14: Go's package scope: a bare name in another file of the folder; build variants are one.
# 15: a script's member call on a receiver of unknown type, by its name alone: 0.4, not 0.8.
# 16: Go receivers typed by what the call they hold returns (`func New() *Engine`).
# 17: a cast as a receiver is its type (`((Element) child).accept()`, `(x as T).m()`).
# 18: Java/C#/Kotlin chained calls typed by what the call before returns (`c.clean(d).text()`).
# 19: a Java/C#/Kotlin call on a declared receiver is a method, not a same-named field.
# 20: a call's number of arguments chooses among overloads (typed receivers, chained
#     calls, `this`/implicit calls), for Java, C#, Kotlin, C++ and TypeScript.
# 21: Go `c.handlers[c.index](c)` (parsed as a generic type): a declared receiver's fields.
# 22: a qualified call `Type.m(x)` (static, or the type imported) chooses its overload too.
# 23: Kotlin receivers: parameters and typed variables, expect/actual classes as one type,
#     extension functions on outside types (`fun String.utf8Size()`).
# 24: across repositories a qualifier's type (`Util.go()`) and a Kotlin extension link only
#     where an import or the spelled-out path (`a.Util.go()`) says so.
# 25: a Scala or Kotlin singleton `object` is a qualifier's owner (`Registry.lookup()`).
# 26: C# extension methods on outside types (`services.AddMediatR()`), as Kotlin's (23).
# 27: a qualified name is code's before a document's heading or key (`use DBConnection`
#     linked the README's `# DBConnection`).
# 28: what a Rust `impl` implements is a trait (not a struct its suffix names, nor an
#     associated type).
# 29: a Go method of an interface's method name with another parameter count implements
#     nothing (echo's `Context` is no `Renderer`).
# 30: a qualified Rust reference is read as a path from its module first (`mpsc::channel()`
#     where the file says `use tokio::sync::mpsc;`, `tokio::spawn()`, `super::helper()`).
# 31: a Rust name a `use` binds, written alone (`channel()` after `use
#     tokio::sync::mpsc::channel;`), is that path's definition, or nothing for std's.
# 32: a Swift `extension`, a Rust `impl` block and a Haskell `instance` are no declaration
#     of the type they name (a name only they have is a type from outside); a Swift
#     type's members include its extensions' in any folder.
# 33: a type written in a Go struct is never one of its fields (an embedded field is
#     named after the type it embeds): `Engine`'s base is the struct RouterGroup.
# 34: a Go name a file imports as a package (`fmt`, `json`, `time` before a dot) links
#     nothing: not a method `time` of the receiver, nor a Makefile's `fmt` target.
# 35: a Python attribute read of a value of unknown type is a member of its name or
#     nothing (not a test's fixture function or variable of that name elsewhere).
# 36: a JavaScript or TypeScript module's value it neither defines, binds nor imports is a
#     global: it links to no other module's top-level name of its spelling.
# 37: a Python attribute called on a value of unknown type or an unknown module
#     (`f.read()`, `httpcore.Request(...)`) is a class's member or nested class or nothing:
#     not a function nested in a test, not a top-level definition of its name.
# 38: a Ruby bare call reaches what its class inherits (mixins, then the superclass, a
#     base looked up from the modules around the class); a use of a name defined twice in
#     one scope (`if ...: def f()` / `else: def f()`) reaches each definition.
# 39: a Ruby literal's method (`%w[a b].include? k`) links nothing; a Swift implicit
#     member (`.accept("x")`, `.retry`) is a static member or an enum case of its name.
# 40: overloads taking as many arguments as a call passes are each a guess; C# extension
#     methods on values of outside types; a field or property a base class declares in
#     another file, used bare (`Serializer.GetMatchingConverter(t)`), says its type.
# 41: Zig: a name bound to `@import("x.zig")` reaches that file's definitions; the
#     standard library's and a value's fields link nothing.
# 42: C++: a bare name, or a field's member (`tracer_.enable(n)`), in a member defined
#     outside its class reaches the class's members (and its bases').
LINKER_VERSION = 42
