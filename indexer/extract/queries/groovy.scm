; Groovy definitions and references (grammar bundled with tree-sitter-language-pack 0.13.0).
; That grammar reads every statement as a `command` of `unit`s and `block`s, without
; declarations: a definition is found by its keyword and position. A keyword followed by
; `{` puts the name inside the block (`interface Priced {`), so both places are tried. A
; method or function is a block whose first unit is a call shape (`total() { ... }`).

; ---- definitions -------------------------------------------------------------

(command
  (unit (identifier) @_keyword)
  . (unit . (identifier) @name .)
  (#any-of? @_keyword "class" "trait")) @definition.class
(command
  (unit (identifier) @_keyword)
  . (block . (unit . (identifier) @name .))
  (#any-of? @_keyword "class" "trait")) @definition.class
(command
  (unit (identifier) @_keyword)
  . [(unit . (identifier) @name .) (block . (unit . (identifier) @name .))]
  (#eq? @_keyword "interface")) @definition.interface
(command
  (unit (identifier) @_keyword)
  . [(unit . (identifier) @name .) (block . (unit . (identifier) @name .))]
  (#eq? @_keyword "enum")) @definition.enum
(command
  (unit (identifier) @_keyword)
  . (block (end_command (unit . (identifier) @name .) @definition.enum_member))
  (#eq? @_keyword "enum"))

(block . (unit (func . (identifier) @name))) @definition.function
; an abstract method: a declaration without a body, in an interface
(command
  (unit (identifier) @_keyword)
  . (block (command . (unit) . (unit (func . (identifier) @name)) .) @definition.method)
  (#eq? @_keyword "interface"))

(source_file
  (command (unit . (identifier) @name .) . (operators) @_assign (#eq? @_assign "=")) @definition.variable)
(block
  (command
    . (unit (identifier) @_type)
    . (unit . (identifier) @name .)
    . (operators)? @_assign .) @definition.field
  (#not-match? @_type "^(return|new|println|print|assert|throw|package|import)$"))

; ---- references --------------------------------------------------------------

(command
  . (unit (identifier) @_keyword)
  (unit) @name .
  (#eq? @_keyword "import")
  (#not-eq? @name "static")) @reference.import
(command
  (unit (identifier) @_keyword)
  . (unit (identifier) @name)
  (#eq? @_keyword "extends")) @reference.inherit
(command
  (unit (identifier) @_keyword)
  . [(unit (identifier) @name) (block . (unit (identifier) @name))]
  (#eq? @_keyword "implements")) @reference.implement
(unit . (func . (identifier) @name)) @reference.call
(unit (identifier) @qualifier . (func . (identifier) @name)) @reference.call
