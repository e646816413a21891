// PostgreSQL URLs as --db and WAVEBENCH_DB take them, the connection strings they refuse, and
// keeping passwords out of what wavebench prints or records: the command line in results documents
// (each argument judged as a whole), messages, libpq's own errors (which may echo the connection
// string). Used by the harness and the PostgreSQL module.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace wb {

/// Whether `s` names a PostgreSQL database: it starts with postgresql:// or postgres://, in lower
/// case (libpq takes no other spelling as a URL).
bool is_postgres_url(std::string_view s);

/// Why `db`, a history location given as `source` (--db, WAVEBENCH_DB), is refused: it looks like
/// a connection string but is no postgresql:// URL (libpq's KEY=VALUE form, POSTGRESQL:// in
/// another case, any other SCHEME://), which would otherwise be taken as the name of an SQLite file.
/// "" where it is taken. The message never quotes `db` and says what to write instead.
std::string refused_history(std::string_view db, std::string_view source);

/// One argument (an element of the command line, a --db value, WAVEBENCH_DB) judged as a whole, with
/// every password in it replaced by ***: of each SCHEME://USER:PASSWORD@ (the password ending at the
/// last '@' of the argument, whatever it holds: spaces, quotes, '/', '@'), of each ?password= (and
/// any key that names a password or secret) in a URL's query, and of each password=VALUE of libpq's
/// KEY=VALUE form (a quoted value to its closing quote).
std::string redact_argument(std::string_view arg);

/// The command line as results documents and the history record it: each argument redacted
/// (redact_argument), and a --db value that is refused (refused_history) replaced by *** whole.
std::string redact_command_line(const std::vector<std::string>& args);

/// `text` (a message that may quote URLs: of a library, of CLI11) with the password of every URL in
/// it replaced by *** (a URL's password ends at the last '@' before the end of its line or the next
/// URL), every password=VALUE likewise, and every password remember_passwords was given, as written
/// and percent-decoded.
std::string redact_urls(std::string_view text);

/// Remembers the passwords in argument `arg` (what redact_argument hides): redact_urls hides them
/// wherever they appear from then on. main() gives it every argument and WAVEBENCH_DB. Passwords
/// shorter than 4 characters are hidden only where they stand in a URL (they would hide too much).
void remember_passwords(std::string_view arg);

/// redact_urls(text), and also every occurrence of the password of `url`, as written and
/// percent-decoded: for messages of libpq, which may quote the password in other forms.
std::string redacted(std::string_view text, std::string_view url);

} // namespace wb
