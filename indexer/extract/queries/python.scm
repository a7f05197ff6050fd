; Python definitions and references (grammar bundled with tree-sitter-language-pack 0.13.0).
; In this grammar a block holds `string` and `assignment` directly, without expression_statement.

; ---- definitions -------------------------------------------------------------

(class_definition
  name: (identifier) @name
  superclasses: (argument_list [(identifier) (attribute) (subscript)] @extends)?
  body: (block . (string) @doc)?) @definition.class

(function_definition
  name: (identifier) @name
  body: (block . (string) @doc)?) @definition.function

(decorated_definition
  (decorator) @decorator
  definition: [
    (class_definition name: (identifier) @name) @definition.class
    (function_definition name: (identifier) @name) @definition.function
  ])

; module- and class-level assignments (also inside if/try/with blocks there, as in
; `try: import x` / `except ImportError: x = None`); the engine drops those inside functions
(module (assignment left: (identifier) @name) @definition.variable)
(class_definition body: (block (assignment left: (identifier) @name) @definition.variable))
(module (assignment left: [(pattern_list (identifier) @name @definition.variable)
                           (tuple_pattern (identifier) @name @definition.variable)]))
(class_definition body: (block (assignment left: [(pattern_list (identifier) @name @definition.variable)
                                                  (tuple_pattern (identifier) @name @definition.variable)])))
(module [
  (if_statement [(block (assignment left: (identifier) @name) @definition.variable)
                 (_ (block (assignment left: (identifier) @name) @definition.variable))])
  (try_statement [(block (assignment left: (identifier) @name) @definition.variable)
                  (_ (block (assignment left: (identifier) @name) @definition.variable))])
  (with_statement (block (assignment left: (identifier) @name) @definition.variable))
])
(class_definition body: (block
  (if_statement [(block (assignment left: (identifier) @name) @definition.variable)
                 (_ (block (assignment left: (identifier) @name) @definition.variable))])))

; ---- references --------------------------------------------------------------

(call function: (identifier) @name) @reference.call
(call function: (attribute object: (_) @qualifier attribute: (identifier) @name)) @reference.call

(import_statement name: (dotted_name) @name) @reference.import
(import_statement name: (aliased_import name: (dotted_name) @name alias: (identifier) @alias)) @reference.import
(import_from_statement module_name: (_) @qualifier name: (dotted_name) @name) @reference.import
(import_from_statement module_name: (_) @qualifier name: (aliased_import name: (dotted_name) @name alias: (identifier) @alias)) @reference.import
; `from pkg.mod import *` (name `*`): the linker looks names up in the module it names
(import_from_statement module_name: (_) @qualifier (wildcard_import) @name) @reference.import

(type (identifier) @name) @reference.type
(type (attribute attribute: (identifier) @name)) @reference.type
(type (generic_type (identifier) @name)) @reference.type
(type (subscript value: (identifier) @name)) @reference.type
; `Optional[Foo]`, `Callable[..., Foo]`, `Foo | None`, `"Foo"` (a string annotation)
(type (subscript subscript: (identifier) @name)) @reference.type
(type (generic_type (type_parameter (type (identifier) @name)))) @reference.type
(type (binary_operator (identifier) @name)) @reference.type
(type (string (string_content) @name (#match? @name "^[A-Za-z_][A-Za-z0-9_.]*$"))) @reference.type

; exception classes: `except X:`, `except (X, Y) as e:`
(except_clause (identifier) @name) @reference.type
(except_clause (tuple (identifier) @name)) @reference.type
(except_clause (as_pattern (identifier) @name)) @reference.type
(except_clause (as_pattern (tuple (identifier) @name))) @reference.type
(raise_statement (identifier) @name) @reference.reference

; a module-level object used before a dot (`registry.items`), not self or cls (word
; predicates, not regexes: these run on every attribute; py-tree-sitter 0.26's
; #not-any-of? filters nothing, hence the #not-eq? pair)
(attribute object: (identifier) @name (#not-eq? @name "self") (#not-eq? @name "cls")) @reference.reference
; a member read through self or cls (`self.cache`, `cls.registry`), called or not
(attribute
  object: (identifier) @qualifier
  attribute: (identifier) @name
  (#any-of? @qualifier "self" "cls")) @reference.reference

; names as bare values: in tuples and lists, conditions, boolean operands
(tuple (identifier) @name) @reference.reference
(expression_list (identifier) @name) @reference.reference
(list (identifier) @name) @reference.reference
(if_statement condition: (identifier) @name) @reference.reference
(while_statement condition: (identifier) @name) @reference.reference
(boolean_operator (identifier) @name) @reference.reference
(not_operator argument: (identifier) @name) @reference.reference

; dict and set literals (`{"gzip": GZipDecoder}`, `{Foo: 1}`, `{A, B}`), defaults
; (`def f(decoder=GZipDecoder)`), comparisons (`x is MISSING`, `k in REGISTRY`),
; subscripts (`REGISTRY[k]`), conditional values, lambdas, yields, asserts, splats, loops
(pair value: (identifier) @name) @reference.reference
(pair key: (identifier) @name) @reference.reference
(set (identifier) @name) @reference.reference
(default_parameter value: (identifier) @name) @reference.reference
(typed_default_parameter value: (identifier) @name) @reference.reference
(comparison_operator (identifier) @name) @reference.reference
(subscript value: (identifier) @name) @reference.reference
(conditional_expression (identifier) @name) @reference.reference
(lambda body: (identifier) @name) @reference.reference
(yield (identifier) @name) @reference.reference
(assert_statement (identifier) @name) @reference.reference
(list_splat (identifier) @name) @reference.reference
(dictionary_splat (identifier) @name) @reference.reference
(for_statement right: (identifier) @name) @reference.reference
(for_in_clause right: (identifier) @name) @reference.reference
(elif_clause condition: (identifier) @name) @reference.reference
(parenthesized_expression (identifier) @name) @reference.reference
(keyword_argument value: (identifier) @name) @reference.reference
(call arguments: (argument_list (identifier) @name)) @reference.reference
(return_statement (identifier) @name) @reference.reference
(assignment right: (identifier) @name) @reference.reference
(assignment right: (attribute attribute: (identifier) @name)) @reference.reference
; operands and indexes (`SUB_DELIMS + safe`, `-OFFSET`, `x[KEY]`, `Tuple[ALIAS, ...]`,
; `n += STEP`, `f"{PREFIX}"`, `await pending`)
(binary_operator (identifier) @name) @reference.reference
(unary_operator argument: (identifier) @name) @reference.reference
(subscript subscript: (identifier) @name) @reference.reference
(slice (identifier) @name) @reference.reference
(augmented_assignment right: (identifier) @name) @reference.reference
(interpolation expression: (identifier) @name) @reference.reference
(await (identifier) @name) @reference.reference
; a dotted name used as a value (`models.DateTimeField` in a tuple, an argument, a dict,
; `except base.Error`, `return mod.X`)
(tuple (attribute object: (identifier) @qualifier attribute: (identifier) @name)) @reference.reference
(list (attribute object: (identifier) @qualifier attribute: (identifier) @name)) @reference.reference
(call arguments: (argument_list (attribute object: (identifier) @qualifier attribute: (identifier) @name))) @reference.reference
(keyword_argument value: (attribute object: (identifier) @qualifier attribute: (identifier) @name)) @reference.reference
(pair (attribute object: (identifier) @qualifier attribute: (identifier) @name)) @reference.reference
(set (attribute object: (identifier) @qualifier attribute: (identifier) @name)) @reference.reference
(default_parameter value: (attribute object: (identifier) @qualifier attribute: (identifier) @name)) @reference.reference
(typed_default_parameter value: (attribute object: (identifier) @qualifier attribute: (identifier) @name)) @reference.reference
(except_clause (attribute object: (identifier) @qualifier attribute: (identifier) @name)) @reference.type
(except_clause (as_pattern (attribute object: (identifier) @qualifier attribute: (identifier) @name))) @reference.type
(except_clause (tuple (attribute object: (identifier) @qualifier attribute: (identifier) @name))) @reference.type
(return_statement (attribute object: (identifier) @qualifier attribute: (identifier) @name)) @reference.reference
(expression_list (attribute object: (identifier) @qualifier attribute: (identifier) @name)) @reference.reference
; a property tested (`if url.is_relative_url:`, `not response.is_error`, `a.x == b.y`)
(if_statement condition: (attribute object: (identifier) @qualifier attribute: (identifier) @name)) @reference.reference
(elif_clause condition: (attribute object: (identifier) @qualifier attribute: (identifier) @name)) @reference.reference
(while_statement condition: (attribute object: (identifier) @qualifier attribute: (identifier) @name)) @reference.reference
(not_operator argument: (attribute object: (identifier) @qualifier attribute: (identifier) @name)) @reference.reference
(boolean_operator (attribute object: (identifier) @qualifier attribute: (identifier) @name)) @reference.reference
(comparison_operator (attribute object: (identifier) @qualifier attribute: (identifier) @name)) @reference.reference
(assert_statement (attribute object: (identifier) @qualifier attribute: (identifier) @name)) @reference.reference

; the type a variable is declared with (`@alias` names the variable; `self.x` a member):
; what a method called on it belongs to. An annotation (`client: Client`, `h: Headers |
; None`, `d: dict[str, str]`), a constructor or a call whose result it holds (`c =
; Client()`, `with AsyncClient() as c`, `r = await c.send()`, `self.h = h or Headers()`)
(typed_parameter . (identifier) @alias type: (type [
  (identifier) @name
  (attribute object: (_) @qualifier attribute: (identifier) @name)
  (generic_type . (identifier) @name (#not-match? @name "^(Optional|Union|Annotated|Final|ClassVar)$"))
  (subscript value: [(identifier) @name (attribute object: (_) @qualifier attribute: (identifier) @name)])
  (binary_operator left: [
    (identifier) @name
    (attribute object: (_) @qualifier attribute: (identifier) @name)
    (generic_type . (identifier) @name)
    (subscript value: [(identifier) @name (attribute object: (_) @qualifier attribute: (identifier) @name)])])])) @reference.type
(typed_parameter . (identifier) @alias type: (type (generic_type . (identifier) @_optional (type_parameter . (type [
    (identifier) @name
    (attribute object: (_) @qualifier attribute: (identifier) @name)]))
  (#eq? @_optional "Optional")))) @reference.type
(typed_default_parameter name: (identifier) @alias type: (type [
  (identifier) @name
  (attribute object: (_) @qualifier attribute: (identifier) @name)
  (generic_type . (identifier) @name (#not-match? @name "^(Optional|Union|Annotated|Final|ClassVar)$"))
  (subscript value: [(identifier) @name (attribute object: (_) @qualifier attribute: (identifier) @name)])
  (binary_operator left: [
    (identifier) @name
    (attribute object: (_) @qualifier attribute: (identifier) @name)
    (generic_type . (identifier) @name)
    (subscript value: [(identifier) @name (attribute object: (_) @qualifier attribute: (identifier) @name)])])])) @reference.type
(typed_default_parameter name: (identifier) @alias type: (type (generic_type . (identifier) @_optional (type_parameter . (type [
    (identifier) @name
    (attribute object: (_) @qualifier attribute: (identifier) @name)]))
  (#eq? @_optional "Optional")))) @reference.type
(assignment left: [(identifier) (attribute object: (identifier) @_self (#any-of? @_self "self" "cls"))] @alias
  type: (type [
  (identifier) @name
  (attribute object: (_) @qualifier attribute: (identifier) @name)
  (generic_type . (identifier) @name (#not-match? @name "^(Optional|Union|Annotated|Final|ClassVar)$"))
  (subscript value: [(identifier) @name (attribute object: (_) @qualifier attribute: (identifier) @name)])
  (binary_operator left: [
    (identifier) @name
    (attribute object: (_) @qualifier attribute: (identifier) @name)
    (generic_type . (identifier) @name)
    (subscript value: [(identifier) @name (attribute object: (_) @qualifier attribute: (identifier) @name)])])])) @reference.type
(assignment left: [(identifier) (attribute object: (identifier) @_self (#any-of? @_self "self" "cls"))] @alias
  type: (type (generic_type . (identifier) @_optional (type_parameter . (type [
    (identifier) @name
    (attribute object: (_) @qualifier attribute: (identifier) @name)]))
  (#eq? @_optional "Optional")))) @reference.type
(assignment
  left: [(identifier) (attribute object: (identifier) @_self (#any-of? @_self "self" "cls"))] @alias
  right: [
    (call function: [(identifier) @name (attribute object: (_) @qualifier attribute: (identifier) @name)])
    (await (call function: [(identifier) @name (attribute object: (_) @qualifier attribute: (identifier) @name)]))
    (boolean_operator right: (call function: [(identifier) @name (attribute object: (_) @qualifier attribute: (identifier) @name)]))
  ]) @reference.call
(with_item value: (as_pattern
  . [(call function: [(identifier) @name (attribute object: (_) @qualifier attribute: (identifier) @name)])
     (await (call function: [(identifier) @name (attribute object: (_) @qualifier attribute: (identifier) @name)]))]
  alias: (as_pattern_target (identifier) @alias))) @reference.call

; ---- names a function binds itself (`@local`): its bare uses there are not the
; module's definitions of the same name (the engine drops them inside functions)
(parameters (identifier) @name @local)
(parameters (default_parameter name: (identifier) @name @local))
(parameters (typed_parameter (identifier) @name @local))
(parameters (typed_default_parameter name: (identifier) @name @local))
(parameters (list_splat_pattern (identifier) @name @local))
(parameters (dictionary_splat_pattern (identifier) @name @local))
(assignment left: (identifier) @name @local)
(assignment left: (pattern_list (identifier) @name @local))
(assignment left: (tuple_pattern (identifier) @name @local))
(augmented_assignment left: (identifier) @name @local)
(for_statement left: (identifier) @name @local)
(for_statement left: (pattern_list (identifier) @name @local))
(with_item value: (as_pattern alias: (as_pattern_target (identifier) @name @local)))
(named_expression name: (identifier) @name @local)
; ... unless declared global there (`global CACHE` then `CACHE = {}`): the module's
(global_statement (identifier) @name @global)
