/* Every schema helper's exact output, and its refusal of bad input. */

#include <stddef.h>

#include "check.h"

/* Checks a helper's result against the exact text, then frees it. */
#define CHECK_SCHEMA(result, want)       \
    do {                                 \
        char *schema_ = (result);        \
        CHECK_STR(schema_, want);        \
        aikido_string_free(schema_);     \
    } while (0)

static void scalars(void) {
    CHECK_SCHEMA(aikido_schema_string("File to read."), "{\"description\":\"File to read.\",\"type\":\"string\"}");
    CHECK_SCHEMA(aikido_schema_integer("Maximum lines."), "{\"description\":\"Maximum lines.\",\"type\":\"integer\"}");
    CHECK_SCHEMA(aikido_schema_number("Ratio."), "{\"description\":\"Ratio.\",\"type\":\"number\"}");
    CHECK_SCHEMA(aikido_schema_boolean("Follow?"), "{\"description\":\"Follow?\",\"type\":\"boolean\"}");
    /* A NULL or empty description is left out. */
    CHECK_SCHEMA(aikido_schema_string(NULL), "{\"type\":\"string\"}");
    CHECK_SCHEMA(aikido_schema_string(""), "{\"type\":\"string\"}");
    CHECK_SCHEMA(aikido_schema_integer(NULL), "{\"type\":\"integer\"}");
    CHECK_SCHEMA(aikido_schema_number(""), "{\"type\":\"number\"}");
    CHECK_SCHEMA(aikido_schema_boolean(NULL), "{\"type\":\"boolean\"}");
    /* Descriptions are JSON-escaped; UTF-8 passes through. */
    CHECK_SCHEMA(aikido_schema_string("say \"hi\"\\\n\t\xc3\xa9t\xc3\xa9"),
                 "{\"description\":\"say \\\"hi\\\"\\\\\\n\\t\xc3\xa9t\xc3\xa9\",\"type\":\"string\"}");
    /* Text that is not UTF-8 gives NULL. */
    CHECK(aikido_schema_string("bad \xff") == NULL);
    CHECK(aikido_schema_integer("bad \xc3") == NULL);
    CHECK(aikido_schema_number("\x80") == NULL);
    CHECK(aikido_schema_boolean("\xed\xa0\x80") == NULL); /* an encoded surrogate */
}

static void enumerations(void) {
    const char *modes[] = {"fast", "slow", "a \"quoted\" one"};
    const char *with_null[] = {"fast", NULL};
    const char *not_utf8[] = {"fast", "\xfe"};
    CHECK_SCHEMA(aikido_schema_enum("Mode.", modes, 3),
                 "{\"description\":\"Mode.\",\"enum\":[\"fast\",\"slow\",\"a \\\"quoted\\\" one\"],\"type\":\"string\"}");
    /* Values keep their order, not sorted. */
    CHECK_SCHEMA(aikido_schema_enum(NULL, modes + 1, 1), "{\"enum\":[\"slow\"],\"type\":\"string\"}");
    CHECK_SCHEMA(aikido_schema_enum("", NULL, 0), "{\"enum\":[],\"type\":\"string\"}");
    CHECK(aikido_schema_enum("Mode.", NULL, 2) == NULL);
    CHECK(aikido_schema_enum("Mode.", with_null, 2) == NULL);
    CHECK(aikido_schema_enum("Mode.", not_utf8, 2) == NULL);
    CHECK(aikido_schema_enum("\xff", modes, 1) == NULL);
}

static void arrays(void) {
    CHECK_SCHEMA(aikido_schema_array("{\"type\":\"string\"}", "Paths."),
                 "{\"description\":\"Paths.\",\"items\":{\"type\":\"string\"},\"type\":\"array\"}");
    /* The items schema is compacted and its keys sorted at every level. */
    CHECK_SCHEMA(aikido_schema_array(" { \"type\" : \"object\", \"properties\" : { \"b\" : 1, \"a\" : [ 2, 1 ] } } ", NULL),
                 "{\"items\":{\"properties\":{\"a\":[2,1],\"b\":1},\"type\":\"object\"},\"type\":\"array\"}");
    CHECK_SCHEMA(aikido_schema_array("true", ""), "{\"items\":true,\"type\":\"array\"}");
    CHECK(aikido_schema_array(NULL, "Paths.") == NULL);
    CHECK(aikido_schema_array("", "Paths.") == NULL);
    CHECK(aikido_schema_array("{\"type\":", "Paths.") == NULL);
    CHECK(aikido_schema_array("{} {}", "Paths.") == NULL);
    CHECK(aikido_schema_array("{\"type\":\"\xff\"}", "Paths.") == NULL);
    CHECK(aikido_schema_array("{\"type\":\"string\"}", "\xff") == NULL);
}

/* RFC 8259 numbers in a schema are valid JSON: accepted, their value kept. */
static void schema_numbers(void) {
    const char *names[] = {"n"};
    const char *huge[] = {"{\"maximum\":1e400}"};
    char *json = NULL, *error = NULL, *items = aikido_schema_array("{\"maximum\":1e400}", NULL);
    CHECK(items != NULL);
    aikido_string_free(items);
    CHECK_STATUS(aikido_schema_object(names, huge, 1, NULL, 0, &json, &error), AIKIDO_OK);
    CHECK(json != NULL);
    aikido_string_free(json);
    aikido_string_free(error);
    /* An integer beyond 64 bits must not become a rounded float. */
    CHECK_SCHEMA(aikido_schema_array("{\"maximum\":123456789012345678901234567890}", NULL),
                 "{\"items\":{\"maximum\":123456789012345678901234567890},\"type\":\"array\"}");
}

static void seed_object_example(void) {
    char *path = aikido_schema_string("File to read.");
    char *limit = aikido_schema_integer("Maximum lines.");
    const char *names[] = {"path", "limit"};
    const char *schemas[2];
    const char *required[] = {"path"};
    char *json = NULL, *error = NULL;
    schemas[0] = path;
    schemas[1] = limit;
    CHECK_STATUS(aikido_schema_object(names, schemas, 2, required, 1, &json, &error), AIKIDO_OK);
    CHECK_STR(json, "{\"properties\":{\"limit\":{\"description\":\"Maximum lines.\",\"type\":\"integer\"},"
                    "\"path\":{\"description\":\"File to read.\",\"type\":\"string\"}},"
                    "\"required\":[\"path\"],\"type\":\"object\"}");
    CHECK(error == NULL);
    aikido_string_free(json);
    aikido_string_free(path);
    aikido_string_free(limit);
}

static void objects(void) {
    const char *names[] = {"b", "a", "b"};
    const char *schemas[] = {"{\"type\":\"string\"}", "{ \"z\": 1, \"a\": { \"d\": 1, \"c\": 2 } }", "{\"type\":\"integer\"}"};
    const char *required[] = {"b", "a"};
    char *json = NULL, *error = NULL;

    /* Required names keep their order; a name given twice keeps its last schema. */
    CHECK_STATUS(aikido_schema_object(names, schemas, 3, required, 2, &json, &error), AIKIDO_OK);
    CHECK_STR(json, "{\"properties\":{\"a\":{\"a\":{\"c\":2,\"d\":1},\"z\":1},\"b\":{\"type\":\"integer\"}},"
                    "\"required\":[\"b\",\"a\"],\"type\":\"object\"}");
    aikido_string_free(json);

    /* No properties and no required names leave both out. */
    CHECK_STATUS(aikido_schema_object(NULL, NULL, 0, NULL, 0, &json, &error), AIKIDO_OK);
    CHECK_STR(json, "{\"type\":\"object\"}");
    aikido_string_free(json);
    CHECK_STATUS(aikido_schema_object(NULL, NULL, 0, required, 1, &json, &error), AIKIDO_OK);
    CHECK_STR(json, "{\"required\":[\"b\"],\"type\":\"object\"}");
    aikido_string_free(json);
    CHECK_STATUS(aikido_schema_object(names + 1, schemas + 2, 1, NULL, 0, &json, &error), AIKIDO_OK);
    CHECK_STR(json, "{\"properties\":{\"a\":{\"type\":\"integer\"}},\"type\":\"object\"}");
    aikido_string_free(json);

    /* Either output may be NULL. */
    CHECK_STATUS(aikido_schema_object(names, schemas, 1, NULL, 0, NULL, NULL), AIKIDO_OK);
}

/* An object call that must fail: json_out stays NULL, the message names the fault. */
static void check_object_refused(const char *const *names, const char *const *schemas, size_t len,
                                 const char *const *required, size_t required_len, const char *fragment) {
    char *json = (char *)"sentinel", *error = NULL;
    CHECK_STATUS(aikido_schema_object(names, schemas, len, required, required_len, &json, &error),
                 AIKIDO_ERR_INVALID_INPUT);
    CHECK(json == NULL);
    CHECK_CONTAINS(error, "aikido/tools: invalid input: ");
    CHECK_CONTAINS(error, fragment);
    aikido_string_free(error);
}

static void objects_refuse_bad_input(void) {
    const char *names[] = {"path"};
    const char *schemas[] = {"{\"type\":\"string\"}"};
    const char *null_name[] = {NULL};
    const char *bad_name[] = {"pa\xffth"};
    const char *bad_schema[] = {"{\"type\":"};
    const char *two_values[] = {"{} {}"};
    check_object_refused(NULL, schemas, 1, NULL, 0, "names is NULL but its length is 1");
    check_object_refused(names, NULL, 1, NULL, 0, "schemas_json is NULL but its length is 1");
    check_object_refused(names, schemas, 1, NULL, 2, "required is NULL but its length is 2");
    check_object_refused(null_name, schemas, 1, NULL, 0, "names[0] is NULL");
    check_object_refused(bad_name, schemas, 1, NULL, 0, "names[0] is not valid UTF-8");
    check_object_refused(names, null_name, 1, NULL, 0, "schemas_json[0] is NULL");
    check_object_refused(names, bad_schema, 1, NULL, 0, "schemas_json[0] is not valid JSON");
    check_object_refused(names, two_values, 1, NULL, 0, "schemas_json[0] is not valid JSON");
    check_object_refused(names, schemas, 1, bad_name, 1, "required[0] is not valid UTF-8");
    check_object_refused(names, schemas, 1, null_name, 1, "required[0] is NULL");
    /* Without error_out the status still tells. */
    CHECK_STATUS(aikido_schema_object(names, bad_schema, 1, NULL, 0, NULL, NULL), AIKIDO_ERR_INVALID_INPUT);
}

int main(void) {
    scalars();
    enumerations();
    arrays();
    schema_numbers();
    seed_object_example();
    objects();
    objects_refuse_bad_input();
    return check_summary("schema");
}
