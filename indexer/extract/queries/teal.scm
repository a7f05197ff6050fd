; inherits: lua
; Teal (typed Lua, .tl) is read with the Lua grammar: its functions, records and
; assignments parse as Lua's where the types do not get in the way.
