"""JSON Schema -> Python type expressions, collecting a TypedDict for every named or inline object."""

from __future__ import annotations

from dataclasses import dataclass

from .names import GenerationError, claim, pascal_case


@dataclass
class TypedDictDef:
    name: str
    description: str
    fields: list[tuple[str, str, bool, str]]  # key, type expression, required, description


class TypeRegistry:
    """Names every object schema once; components keep their names, inline objects get their owner's."""

    def __init__(self, components: dict):
        self.components = components
        self.definitions: dict[str, TypedDictDef] = {}
        self._owners: dict[str, str] = {}
        for name in components:
            claim(self._owners, name, f"components.schemas.{name}")

    def add_components(self) -> None:
        for name in sorted(self.components):
            schema = self.components[name]
            if _is_object_with_properties(schema):
                self._define(name, schema, f"components.schemas.{name}")

    def component_alias(self, name: str) -> str | None:
        """A component that is not an object with properties becomes a plain alias."""
        schema = self.components[name]
        return None if _is_object_with_properties(schema) else self.type_of(schema, name)

    def type_of(self, schema: dict | None, name_hint: str) -> str:
        if not schema:
            return "Any"
        if "$ref" in schema:
            ref = schema["$ref"]
            prefix = "#/components/schemas/"
            if not ref.startswith(prefix) or ref[len(prefix) :] not in self.components:
                raise GenerationError(f"unresolvable $ref {ref!r}")
            return ref[len(prefix) :]
        if "const" in schema:
            return f"Literal[{schema['const']!r}]"
        if "enum" in schema:
            return "Literal[" + ", ".join(repr(value) for value in schema["enum"]) + "]"
        for combinator in ("anyOf", "oneOf"):
            if combinator in schema:
                choices = schema[combinator]
                # `X | None` is the common case: the one real option keeps the plain name.
                real = [option for option in choices if option.get("type") != "null"]
                hints = [name_hint if len(real) == 1 else f"{name_hint}Option{index + 1}" for index in range(len(choices))]
                options = [self.type_of(option, hint) for option, hint in zip(choices, hints)]
                return _union(options)
        if "allOf" in schema:
            parts = schema["allOf"]
            return self.type_of(parts[0], name_hint) if len(parts) == 1 else "dict[str, Any]"
        types = schema.get("type")
        if isinstance(types, list):
            return _union([self.type_of({**schema, "type": single}, name_hint) for single in types])
        if types == "string":
            return "bytes" if schema.get("format") == "binary" else "str"
        if types == "integer":
            return "int"
        if types == "number":
            return "float"
        if types == "boolean":
            return "bool"
        if types == "null":
            return "None"
        if types == "array":
            return f"list[{self.type_of(schema.get('items'), name_hint + 'Item')}]"
        if types == "object" or "properties" in schema:
            if _is_object_with_properties(schema):
                return self._define(name_hint, schema, f"an inline schema named {name_hint}")
            extra = schema.get("additionalProperties")
            value = self.type_of(extra, name_hint + "Value") if isinstance(extra, dict) else "Any"
            return f"dict[str, {value}]"
        return "Any"

    def _define(self, name: str, schema: dict, owner: str) -> str:
        claim(self._owners, name, owner)
        if name in self.definitions:
            return name
        definition = TypedDictDef(name, schema.get("description", ""), [])
        self.definitions[name] = definition  # before the fields: a schema may refer to itself
        required = set(schema.get("required", []))
        for key, property_schema in schema["properties"].items():
            expression = self.type_of(property_schema, name + pascal_case(key))
            definition.fields.append((key, expression, key in required, property_schema.get("description", "")))
        return name


def _is_object_with_properties(schema: dict) -> bool:
    return bool(schema.get("properties")) and schema.get("type", "object") == "object"


def _union(options: list[str]) -> str:
    unique = list(dict.fromkeys(options))
    if "Any" in unique:
        return "Any"
    return " | ".join(unique)
