; Protocol Buffers definitions and references (grammar bundled with tree-sitter-language-pack 0.13.0).
; Messages are structs, services interfaces, rpcs their methods.

; ---- definitions -------------------------------------------------------------

(package (full_ident) @name) @definition.package

(message (message_name (identifier) @name)) @definition.struct
(enum (enum_name (identifier) @name)) @definition.enum
(enum_field (identifier) @name) @definition.enum_member
(service (service_name (identifier) @name)) @definition.interface
(rpc (rpc_name (identifier) @name)) @definition.method

(field (identifier) @name) @definition.field
(map_field (identifier) @name) @definition.field
(oneof_field (identifier) @name) @definition.field

; ---- references --------------------------------------------------------------

(import path: (string) @name) @reference.import
(message_or_enum_type (identifier) @name .) @qualifier @reference.type
