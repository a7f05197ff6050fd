; Clojure definitions and references (grammar bundled with tree-sitter-language-pack 0.13.0).
; Every form is a list: a definition is a list whose first symbol is a defining macro
; (`defn`, `def`, `defprotocol`, ...), named by the symbol after it. Protocol methods are
; the lists inside `defprotocol`; `ns` names the file's namespace.

; ---- definitions -------------------------------------------------------------

(source
  (list_lit
    . (sym_lit name: (sym_name) @_def)
    . (sym_lit name: (sym_name) @name)
    . (str_lit)? @doc
    (#any-of? @_def "defn" "defn-" "defmulti" "definline")) @definition.function)
(source
  (list_lit
    . (sym_lit name: (sym_name) @_def)
    . (sym_lit name: (sym_name) @name)
    (#eq? @_def "defmacro")) @definition.macro)
(source
  (list_lit
    . (sym_lit name: (sym_name) @_def)
    . (sym_lit name: (sym_name) @name)
    (#any-of? @_def "def" "defonce")) @definition.variable)
(source
  (list_lit
    . (sym_lit name: (sym_name) @_def)
    . (sym_lit name: (sym_name) @name)
    (#any-of? @_def "defrecord" "deftype")) @definition.class)
(source
  (list_lit
    . (sym_lit name: (sym_name) @_def)
    . (sym_lit name: (sym_name) @name)
    (#any-of? @_def "defprotocol" "definterface")) @definition.interface)
(source
  (list_lit
    . (sym_lit name: (sym_name) @_def)
    . (sym_lit)
    (list_lit . (sym_lit name: (sym_name) @name)) @definition.method
    (#eq? @_def "defprotocol")))
(source
  (list_lit
    . (sym_lit name: (sym_name) @_def)
    . (sym_lit name: (sym_name) @name)
    (#eq? @_def "ns")) @definition.namespace)

; ---- references --------------------------------------------------------------

(list_lit
  . (sym_lit name: (sym_name) @_ns)
  (list_lit
    . (kwd_lit name: (kwd_name) @_require)
    (vec_lit . (sym_lit name: (sym_name) @name)))
  (#eq? @_ns "ns")
  (#any-of? @_require "require" "use" "import")) @reference.import

(list_lit . (sym_lit namespace: (sym_ns) @qualifier name: (sym_name) @name)) @reference.call
(list_lit . (sym_lit !namespace name: (sym_name) @name)
  (#not-match? @name "^(def|defn|defn-|defmacro|defmulti|defmethod|defprotocol|defrecord|deftype|defonce|ns|let|fn|if|do|when|loop|recur|quote)$")) @reference.call
