; Nix definitions and references (grammar bundled with tree-sitter-language-pack 0.13.0).
; Every binding of an attribute set or a `let` is a definition, nested under the binding
; that holds it, so a qualified name is the attribute path (`shop.pname`); a binding to a
; function is a function.

; ---- definitions -------------------------------------------------------------

(binding
  attrpath: (attrpath attr: (identifier) @name .)
  expression: (function_expression)) @definition.function
(binding attrpath: (attrpath attr: (identifier) @name .)) @definition.variable

; ---- references --------------------------------------------------------------

(apply_expression
  function: (variable_expression name: (identifier) @_import)
  argument: [(path_expression) (spath_expression)] @name
  (#eq? @_import "import")) @reference.import

(apply_expression function: (variable_expression name: (identifier) @name)) @reference.call
(apply_expression
  function: (select_expression
    expression: (variable_expression name: (identifier) @qualifier)
    attrpath: (attrpath attr: (identifier) @name .))) @reference.call
(apply_expression argument: (variable_expression name: (identifier) @name)) @reference.reference
(inherited_attrs attr: (identifier) @name) @reference.reference
