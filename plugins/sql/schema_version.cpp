#include "schema_version.h"

namespace mnemo::sqlcore {

int stored_schema_version(Db& db) {
    Query query(db, "SELECT COALESCE(MAX(version), 0) FROM schema_version");
    return query.step() ? static_cast<int>(query.i64(0)) : 0;
}

void refuse_newer_schema(const std::string& engine, const std::string& where, int version, int supported,
                         const std::string& option, const std::string& instead) {
    throw StoreError(MNEMO_E_INVALID, engine + " database " + where + " has schema version " + std::to_string(version) +
                                          " but this mnemo_" + engine + " supports up to " + std::to_string(supported) +
                                          "; upgrade mnemod or point storage.options." + option + " at " + instead);
}

StoreError step_failed(int version, const StoreError& error) {
    return StoreError(error.code(), "schema migration " + std::to_string(version) + " failed: " + error.what());
}

}  // namespace mnemo::sqlcore
