/* A program built against an installed libaikido with nothing but the flags
 * pkg-config gives: the seed's greet example, end to end. */

#include <stdio.h>
#include <string.h>

#include <aikido.h>

static aikido_status greet(void *userdata, const char *arguments, size_t arguments_len,
                           const aikido_environment *environment, aikido_reply *reply) {
    /* The arguments were checked: {"name":"Ada"} is all this example sends. */
    const char *name = strstr(arguments, "Ada") ? "Ada" : "stranger";
    char text[64];
    int len = snprintf(text, sizeof text, "Hello, %s!", name);
    (void)userdata, (void)arguments_len, (void)environment;
    return aikido_reply_set_content(reply, text, (size_t)len);
}

int main(void) {
    const char *names[] = {"name"};
    const char *required[] = {"name"};
    const char *schemas[1];
    char *name_schema = aikido_schema_string("Who to greet."), *parameters = NULL, *content = NULL, *error = NULL;
    aikido_registry *registry = aikido_registry_new();
    aikido_tool_call call = {"call-1", "greet", "{\"name\":\"Ada\"}", 14};
    aikido_environment environment;
    int ok;

    if (strcmp(aikido_version(), AIKIDO_VERSION) != 0) {
        fprintf(stderr, "consumer: the library is %s, the header %s\n", aikido_version(), AIKIDO_VERSION);
        return 1;
    }
    schemas[0] = name_schema;
    memset(&environment, 0, sizeof environment);
    environment.session_id = "conversation-1";
    aikido_uuid_new_v7(environment.turn_id);
    ok = aikido_schema_object(names, schemas, 1, required, 1, &parameters, &error) == AIKIDO_OK &&
         aikido_registry_register(registry, "greet", "Greet a person by name.", parameters, greet, NULL, NULL,
                                  &error) == AIKIDO_OK &&
         aikido_registry_dispatch(registry, &call, &environment, &content, &error) == AIKIDO_OK &&
         strcmp(content, "Hello, Ada!") == 0;
    printf("consumer: libaikido %s: %s\n", aikido_version(), ok ? content : (error ? error : "wrong content"));
    aikido_string_free(content);
    aikido_string_free(error);
    aikido_string_free(parameters);
    aikido_string_free(name_schema);
    aikido_registry_free(registry);
    return ok ? 0 : 1;
}
