; Elixir definitions and references (grammar bundled with tree-sitter-language-pack 0.13.0).
; Everything is a `call`; the macro name (def, defmodule, ...) says what it defines.
; `@doc`/`@moduledoc` strings and sigils (`~S"""`) are docs, wherever in the module; a multi-clause function gives one definition per clause.

; ---- definitions -------------------------------------------------------------

(call
  target: (identifier) @_kw
  (arguments . (alias) @name)
  (#eq? @_kw "defmodule")) @definition.module
(call
  target: (identifier) @_kw
  (arguments . (alias) @name)
  (do_block
    (unary_operator
        operand: (call
          target: (identifier) @_md
          (arguments [(string (quoted_content) @doc) (sigil (quoted_content) @doc)]))))
  (#eq? @_kw "defmodule")
  (#eq? @_md "moduledoc")) @definition.module
(call
  target: (identifier) @_kw
  (arguments . (alias) @name)
  (#eq? @_kw "defprotocol")) @definition.interface

(call
  target: (identifier) @_kw
  (arguments . [
    (identifier) @name
    (call target: (identifier) @name)
    (binary_operator left: (call target: (identifier) @name))])
  (#any-of? @_kw "def" "defp" "defdelegate" "defguard" "defguardp")) @definition.function
(call
  target: (identifier) @_kw
  (arguments . [
    (identifier) @name
    (call target: (identifier) @name)
    (binary_operator left: (call target: (identifier) @name))])
  (#any-of? @_kw "defmacro" "defmacrop")) @definition.macro
; a record's macros: `Record.defrecord(:conn, [...])` defines `conn(...)`
(call
  target: (dot left: (alias) @_r right: (identifier) @_d)
  (arguments . (atom) @name)
  (#eq? @_r "Record")
  (#any-of? @_d "defrecord" "defrecordp")) @definition.macro

; `@doc "..."` or `@doc ~S"""..."""` (and an optional `@spec` after it) right before a def
((unary_operator
   operand: (call target: (identifier) @_d
     (arguments [(string (quoted_content) @doc) (sigil (quoted_content) @doc)])))
 .
 (call
   target: (identifier) @_kw
   (arguments . [(identifier) @name (call target: (identifier) @name)
                 (binary_operator left: (call target: (identifier) @name))]))
 @definition.function
 (#eq? @_d "doc")
 (#any-of? @_kw "def" "defp"))
((unary_operator
   operand: (call target: (identifier) @_d
     (arguments [(string (quoted_content) @doc) (sigil (quoted_content) @doc)])))
 .
 (unary_operator operand: (call target: (identifier) @_s))
 .
 (call
   target: (identifier) @_kw
   (arguments . [(identifier) @name (call target: (identifier) @name)
                 (binary_operator left: (call target: (identifier) @name))]))
 @definition.function
 (#eq? @_d "doc")
 (#eq? @_s "spec")
 (#any-of? @_kw "def" "defp"))

(unary_operator
  operand: (call
    target: (identifier) @_t
    (arguments (binary_operator left: [(identifier) @name (call target: (identifier) @name)])))
  (#any-of? @_t "type" "typep" "opaque")) @definition.type
(unary_operator
  operand: (call
    target: (identifier) @_t
    (arguments (binary_operator left: (call target: (identifier) @name))))
  (#any-of? @_t "callback" "macrocallback")) @definition.method
(unary_operator
  operand: (call target: (identifier) @name (arguments . [(integer) (float) (string) (atom) (list) (map) (boolean) (nil)]))
  (#not-match? @name "^(doc|moduledoc|typedoc|spec|type|typep|opaque|callback|macrocallback|impl|behaviour|derive|enforce_keys|compile|dialyzer|deprecated|since|external_resource|on_load|before_compile|after_compile)$")) @definition.constant

(call
  target: (identifier) @_kw
  (arguments (list (atom) @name))
  (#eq? @_kw "defstruct")) @definition.field

; ---- references --------------------------------------------------------------

; a module attribute read (`@default_timeout * 2`); its definition is `@name value`
(unary_operator operator: "@" operand: (identifier) @name) @reference.reference
(call
  target: (identifier) @_kw
  (arguments . (alias) @name)
  (#any-of? @_kw "alias" "import" "require" "use")) @reference.import
(call
  target: (identifier) @_kw
  (arguments . (alias) @name)
  (#eq? @_kw "defimpl")) @reference.implement
(unary_operator
  operand: (call target: (identifier) @_b (arguments (alias) @name))
  (#eq? @_b "behaviour")) @reference.implement

(call target: (dot left: (_) @qualifier right: (identifier) @name)) @reference.call
(call
  target: (identifier) @_outer
  (arguments (call target: (identifier) @name))
  (#not-match? @_outer "^(def|defp|defmacro|defmacrop|defguard|defguardp|defdelegate)$")) @reference.call
(do_block (call target: (identifier) @name (#not-match? @name "^(def|defp|defmacro|defmacrop|defmodule|defprotocol|defimpl|defstruct|defexception|defdelegate|defguard|defguardp|alias|import|require|use|quote|unquote)$"))) @reference.call
(pair value: (call target: (identifier) @name)) @reference.call
(binary_operator right: (call target: (identifier) @name)) @reference.call
; a local call as a clause's body (a case arm's `-> bad_return!(x)`), an element of a list
; or a tuple, an interpolation
(stab_clause right: (body (call target: (identifier) @name (#not-match? @name "^(case|cond|if|unless|with|for|fn|try|receive|raise|reraise|throw|quote|unquote)$")))) @reference.call
(list (call target: (identifier) @name)) @reference.call
; a `cond` clause's condition, an argument of a remote call (`Enum.any?(xs, match?(n))`),
; an operand (`not xhr?(conn)`, `&allowed?(&1, host)`,
; `empty?(head) and empty?(tail)`; not a spec's `f(x) :: t`, a type union)
(stab_clause left: (arguments (call target: (identifier) @name))) @reference.call
(call
  target: (dot)
  (arguments (call target: (identifier) @name))
  (#not-match? @name "^unquote(_splicing)?$")) @reference.call
(unary_operator operator: ["not" "!" "&" "-" "^"] operand: (call target: (identifier) @name)) @reference.call
(binary_operator
  left: (call target: (identifier) @name)
  operator: _ @_op
  (#not-match? @_op "^(::|[|]|when|<-|->)$")) @reference.call
(tuple (call target: (identifier) @name)) @reference.call
(interpolation (call target: (identifier) @name)) @reference.call
(unary_operator operator: "&" operand: (binary_operator left: (identifier) @name)) @reference.reference
(struct (alias) @name) @reference.type
; a type named in a spec or callback (`@spec execute(conn, query, params) :: result`)
(unary_operator
  operator: "@"
  operand: (call
    target: (identifier) @_s
    (arguments (binary_operator
      left: (call (arguments (identifier) @name)))))
  (#any-of? @_s "spec" "callback" "macrocallback")) @reference.type
(unary_operator
  operator: "@"
  operand: (call
    target: (identifier) @_s
    (arguments (binary_operator right: [(identifier) @name (tuple (identifier) @name)])))
  (#any-of? @_s "spec" "callback" "macrocallback")) @reference.type
