// PostgreSQL URLs as --db and WAVEBENCH_DB take them, and keeping their passwords out of what
// wavebench prints or records: the command line in results documents, messages, libpq's own
// errors (which may echo the connection string). Used by the harness and the PostgreSQL module.
#pragma once

#include <string>
#include <string_view>

namespace wb {

/// Whether `s` names a PostgreSQL database: it starts with postgresql:// or postgres://.
bool is_postgres_url(std::string_view s);

/// `text` with the password of every PostgreSQL URL in it (user:PASSWORD@ and password=PASSWORD
/// in the query) replaced by ***.
std::string redact_urls(std::string_view text);

/// redact_urls(text), and also every occurrence of the password of `url`, as written and
/// percent-decoded: for messages of libpq, which may quote the password in other forms.
std::string redacted(std::string_view text, std::string_view url);

} // namespace wb
