; inherits: typescript
; TSX: every TypeScript pattern (the line above pulls in typescript.scm), plus JSX.

; ---- JSX: a capitalised element is a use of a component ------------------------

(jsx_opening_element name: (identifier) @name (#match? @name "^[A-Z]")) @reference.call
(jsx_self_closing_element name: (identifier) @name (#match? @name "^[A-Z]")) @reference.call
(jsx_opening_element
  name: (member_expression object: (_) @qualifier property: (property_identifier) @name)) @reference.call
(jsx_self_closing_element
  name: (member_expression object: (_) @qualifier property: (property_identifier) @name)) @reference.call
; a value in braces (`onClick={handleCopy}`, `{items}`)
(jsx_expression (identifier) @name) @reference.reference
