#include <json-glib/json-glib.h>

/* GType constants are macros Swift cannot see: the kind of a value node
   as a plain number (1 integer, 2 real, 3 boolean, 4 string, 0 other). */
static inline int easel_json_value_kind(JsonNode *node) {
    GType type = json_node_get_value_type(node);
    if (type == G_TYPE_INT64) return 1;
    if (type == G_TYPE_DOUBLE) return 2;
    if (type == G_TYPE_BOOLEAN) return 3;
    if (type == G_TYPE_STRING) return 4;
    return 0;
}
