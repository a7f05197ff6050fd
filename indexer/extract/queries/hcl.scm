; HCL / Terraform definitions and references (tree-sitter-language-pack 0.13.0 "terraform").
; `resource "aws_instance" "web"` is a class named web on receiver aws_instance, so its
; qualified name is the address Terraform uses (aws_instance.web); data sources likewise.

; ---- definitions -------------------------------------------------------------

(block
  (identifier) @_kind
  . (string_lit (template_literal) @receiver)
  . (string_lit (template_literal) @name)
  (#any-of? @_kind "resource" "data")) @definition.class
(block
  (identifier) @_kind
  . (string_lit (template_literal) @name)
  . (block_start)
  (#eq? @_kind "variable")) @definition.variable
(block
  (identifier) @_kind
  . (string_lit (template_literal) @name)
  (#eq? @_kind "output")) @definition.property
(block
  (identifier) @_kind
  . (string_lit (template_literal) @name)
  (#eq? @_kind "module")) @definition.module
(block
  (identifier) @_kind
  . (string_lit (template_literal) @name)
  (#eq? @_kind "provider")) @definition.namespace
(block
  (identifier) @_kind
  (body (attribute (identifier) @name) @definition.variable)
  (#eq? @_kind "locals"))

; ---- references --------------------------------------------------------------

(block
  (identifier) @_kind
  (body
    (attribute
      (identifier) @_source
      (expression (literal_value (string_lit (template_literal) @name)))))
  (#eq? @_kind "module")
  (#eq? @_source "source")) @reference.import

(function_call (identifier) @name) @reference.call
(expression (variable_expr (identifier) @qualifier) . (get_attr (identifier) @name)) @reference.reference
