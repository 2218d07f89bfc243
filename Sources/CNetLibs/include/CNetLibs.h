// libcurl and libmosquitto, loaded with dlopen when a sink needs them rather than linked:
// without a webhook or MQTT sink, neither they nor their TLS, Kerberos, LDAP, SSH…
// libraries are mapped into the daemon (docs/ARCHITECTURE.md, "Lean").
//
// Each somniq_curl_* / somniq_mosquitto_* function calls the library function of the
// same name, once the library is loaded; somniq_curl_set_* are the typed forms of the
// variadic curl_easy_setopt (Swift cannot call variadic functions).
#pragma once
#include <curl/curl.h>
#include <mosquitto.h>

/// Loads libcurl (libcurl.so.4) once; NULL when loaded, else why not (dlerror's text).
const char *somniq_curl_load(void);

CURLcode somniq_curl_global_init(long flags);
CURL *somniq_curl_easy_init(void);
void somniq_curl_easy_cleanup(CURL *curl);
void somniq_curl_easy_reset(CURL *curl);
CURLcode somniq_curl_easy_perform(CURL *curl);
const char *somniq_curl_easy_strerror(CURLcode code);
struct curl_slist *somniq_curl_slist_append(struct curl_slist *list, const char *string);
void somniq_curl_slist_free_all(struct curl_slist *list);
CURLcode somniq_curl_set_string(CURL *c, CURLoption o, const char *v);
CURLcode somniq_curl_set_long(CURL *c, CURLoption o, long v);
CURLcode somniq_curl_set_pointer(CURL *c, CURLoption o, void *v);
CURLcode somniq_curl_set_write_function(CURL *c, size_t (*f)(char *, size_t, size_t, void *));
CURLcode somniq_curl_response_code(CURL *c, long *code);

/// Loads libmosquitto (libmosquitto.so.1) once; NULL when loaded, else why not.
const char *somniq_mosquitto_load(void);

int somniq_mosquitto_lib_init(void);
struct mosquitto *somniq_mosquitto_new(const char *id, bool clean_session, void *obj);
void somniq_mosquitto_destroy(struct mosquitto *mosq);
int somniq_mosquitto_int_option(struct mosquitto *mosq, enum mosq_opt_t option, int value);
int somniq_mosquitto_will_set(struct mosquitto *mosq, const char *topic, int payloadlen, const void *payload, int qos, bool retain);
int somniq_mosquitto_username_pw_set(struct mosquitto *mosq, const char *username, const char *password);
int somniq_mosquitto_tls_set(struct mosquitto *mosq, const char *cafile, const char *capath, const char *certfile,
                             const char *keyfile, int (*pw_callback)(char *buf, int size, int rwflag, void *userdata));
void somniq_mosquitto_connect_callback_set(struct mosquitto *mosq, void (*on_connect)(struct mosquitto *, void *, int));
void somniq_mosquitto_publish_callback_set(struct mosquitto *mosq, void (*on_publish)(struct mosquitto *, void *, int));
void somniq_mosquitto_disconnect_callback_set(struct mosquitto *mosq, void (*on_disconnect)(struct mosquitto *, void *, int));
int somniq_mosquitto_reconnect_delay_set(struct mosquitto *mosq, unsigned int delay, unsigned int delay_max, bool exponential);
int somniq_mosquitto_connect_async(struct mosquitto *mosq, const char *host, int port, int keepalive);
int somniq_mosquitto_loop_start(struct mosquitto *mosq);
int somniq_mosquitto_loop_stop(struct mosquitto *mosq, bool force);
int somniq_mosquitto_disconnect(struct mosquitto *mosq);
int somniq_mosquitto_publish(struct mosquitto *mosq, int *mid, const char *topic, int payloadlen, const void *payload, int qos, bool retain);
const char *somniq_mosquitto_strerror(int mosq_errno);
const char *somniq_mosquitto_connack_string(int connack_code);
