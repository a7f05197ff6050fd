; R definitions and references (grammar bundled with tree-sitter-language-pack 0.13.0).
; `f <- function(...)` (or `=`, `<<-`) at the top of a file is a function, any other
; top-level assignment a variable; `X <- setRefClass("X", ...)` (and setClass) a class;
; `setGeneric("f", ...)` a function.

; ---- definitions -------------------------------------------------------------

(program
  (binary_operator
    lhs: (identifier) @name
    operator: ["<-" "=" "<<-"]
    rhs: (function_definition)) @definition.function)
(program
  (binary_operator
    lhs: (identifier) @name
    operator: ["<-" "=" "<<-"]
    rhs: (call function: (identifier) @_class)
    (#any-of? @_class "setRefClass" "setClass" "R6Class")) @definition.class)
(program
  (binary_operator lhs: (identifier) @name operator: ["<-" "=" "<<-"]) @definition.variable)
(program
  (call
    function: (identifier) @_generic
    arguments: (arguments . (argument value: (string content: (string_content) @name))))
  @definition.function
  (#any-of? @_generic "setGeneric" "setMethod"))

; ---- references --------------------------------------------------------------

(call
  function: (identifier) @_load
  arguments: (arguments . (argument value: [(identifier) @name (string (string_content) @name)]))
  (#any-of? @_load "library" "require" "requireNamespace" "source")) @reference.import

(call function: (identifier) @name) @reference.call
(call function: (namespace_operator lhs: (identifier) @qualifier rhs: (identifier) @name)) @reference.call
(argument value: (identifier) @name) @reference.reference
