/** The keywords that hold subschemas, for walks over every schema in a document. */

/** Keywords holding one subschema, or a list of them. */
export const SUBSCHEMA_KEYWORDS = (
  "additionalProperties additionalItems unevaluatedProperties unevaluatedItems items prefixItems contains " +
  "propertyNames not if then else allOf anyOf oneOf"
).split(" ");

/** Keywords holding a `name → subschema` map, besides `properties`. */
export const SUBSCHEMA_MAP_KEYWORDS = ["patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"];
