; R definitions and references (grammar bundled with tree-sitter-language-pack 0.13.0).
; `f <- function(...)` (or `=`, `<<-`) is a function, also inside another function (a
; helper closure); any other top-level assignment a variable; `X <- setRefClass("X", ...)`
; (and setClass, R6Class) a class, whose `public = list(f = function(...) ...)` members
; are its methods; `setGeneric("f", ...)` a function.

; ---- definitions -------------------------------------------------------------

(binary_operator
  lhs: (identifier) @name
  operator: ["<-" "=" "<<-"]
  rhs: (function_definition)) @definition.function
(program
  (binary_operator
    lhs: (identifier) @name
    operator: ["<-" "=" "<<-"]
    rhs: (call function: [(identifier) (namespace_operator)] @_class)
    (#match? @_class "(^|:)(setRefClass|setClass|R6Class)$")) @definition.class)
(program
  (binary_operator lhs: (identifier) @name operator: ["<-" "=" "<<-"]) @definition.variable)
(call
  function: [(identifier) (namespace_operator)] @_class
  arguments: (arguments
    (argument
      value: (call
        function: (identifier) @_list
        arguments: (arguments
          (argument name: (identifier) @name value: (function_definition)) @definition.method))))
  (#match? @_class "(^|:)(R6Class|setRefClass)$")
  (#eq? @_list "list"))
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
