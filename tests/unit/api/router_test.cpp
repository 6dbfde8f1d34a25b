#include "api/query.h"
#include "api/router.h"

#include <gtest/gtest.h>

namespace mnemo::api {
namespace {

Router make_router() {
    Router router;
    router.add("POST", "/v1/apps/{app}/users/{user}/sessions");
    router.add("GET", "/v1/apps/{app}/users/{user}/sessions");
    router.add("GET", "/v1/apps/{app}/users/{user}/sessions/{session}");
    return router;
}

TEST(Router, MatchesAndDecodesNames) {
    auto router = make_router();  // params point into the router's patterns
    auto match = router.match("GET", "/v1/apps/shop/users/u%401/sessions/s1");
    ASSERT_EQ(match.kind, RouteMatch::Kind::Found);
    EXPECT_EQ(match.params.get("user"), "u@1");
    EXPECT_EQ(match.params.get("session"), "s1");
    EXPECT_EQ(match.pattern, "/v1/apps/{app}/users/{user}/sessions/{session}");
}

TEST(Router, BadNamesAreBadRequestsNotMisses) {
    auto router = make_router();
    EXPECT_EQ(router.match("GET", "/v1/apps/shop/users//sessions").kind, RouteMatch::Kind::BadName);
    EXPECT_EQ(router.match("GET", "/v1/apps/shop/users/../sessions").kind, RouteMatch::Kind::BadName);
    EXPECT_EQ(router.match("GET", "/v1/apps/shop/users/a%00b/sessions").kind, RouteMatch::Kind::BadName);
    EXPECT_EQ(router.match("GET", "/v1/apps/shop/users/a%2Fb/sessions").kind, RouteMatch::Kind::BadName);
    EXPECT_EQ(router.match("GET", "/v1/apps/shop/users/a%zz/sessions").kind, RouteMatch::Kind::BadName);
    EXPECT_EQ(router.match("GET", "/v1/apps/shop/users/" + std::string(129, 'x') + "/sessions").kind,
              RouteMatch::Kind::BadName);
}

TEST(Router, UnknownPathsAndTrailingSlashesAreNotFound) {
    auto router = make_router();
    EXPECT_EQ(router.match("GET", "/v1/nothing").kind, RouteMatch::Kind::NotFound);
    EXPECT_EQ(router.match("GET", "/v1/apps/shop/users/u1/sessions/").kind, RouteMatch::Kind::NotFound);
}

TEST(Router, WrongMethodListsTheAllowedOnes) {
    auto router = make_router();
    auto match = router.match("DELETE", "/v1/apps/shop/users/u1/sessions");
    ASSERT_EQ(match.kind, RouteMatch::Kind::WrongMethod);
    EXPECT_EQ(match.allow, "POST, GET");
}

// ".../memories/search" (GET) overlaps ".../memories/{memory}" (GET, PATCH, DELETE): the literal owns the path.
TEST(Router, OverlappingPatternsAllowOnlyTheMethodsOfTheMostSpecific) {
    Router router;
    router.add("GET", "/v1/apps/{app}/users/{user}/memories/search");
    router.add("GET", "/v1/apps/{app}/users/{user}/memories/{memory}");
    router.add("PATCH", "/v1/apps/{app}/users/{user}/memories/{memory}");
    router.add("DELETE", "/v1/apps/{app}/users/{user}/memories/{memory}");
    router.add("GET", "/v1/apps/{app}/users/{user}/memories/{memory}");  // a second registration: listed once
    auto search = router.match("POST", "/v1/apps/shop/users/u1/memories/search");
    ASSERT_EQ(search.kind, RouteMatch::Kind::WrongMethod);
    EXPECT_EQ(search.allow, "GET");
    EXPECT_EQ(search.params.get("app"), "shop");
    EXPECT_EQ(router.match("PATCH", "/v1/apps/shop/users/u1/memories/search").kind, RouteMatch::Kind::WrongMethod);
    auto memory = router.match("POST", "/v1/apps/shop/users/u1/memories/m1");
    ASSERT_EQ(memory.kind, RouteMatch::Kind::WrongMethod);
    EXPECT_EQ(memory.allow, "GET, PATCH, DELETE");
    EXPECT_EQ(router.match("PATCH", "/v1/apps/shop/users/u1/memories/m1").kind, RouteMatch::Kind::Found);
}

TEST(Query, ParsesDecodesAndAppliesLimitRules) {
    Query q;
    ASSERT_FALSE(Query::parse("limit=5000&role=user%2Ctool&after=2023-11-14T22%3A13%3A20Z&x", q));
    int64_t limit = 0;
    ASSERT_FALSE(q.limit(100, 1000, limit));
    EXPECT_EQ(limit, 1000);
    EXPECT_EQ(q.get("role"), "user,tool");
    int64_t after = 0;
    ASSERT_FALSE(q.timestamp("after", after));
    EXPECT_EQ(after, 1'700'000'000'000'000);
    EXPECT_EQ(q.get("x"), "");
}

TEST(Query, ZeroOrNegativeLimitIsAnError) {
    for (const char* raw : {"limit=0", "limit=-3", "limit=abc"}) {
        Query q;
        ASSERT_FALSE(Query::parse(raw, q));
        int64_t limit = 0;
        auto error = q.limit(100, 1000, limit);
        ASSERT_TRUE(error) << raw;
        EXPECT_EQ(error->code, core::ErrorCode::InvalidArgument);
    }
}

}  // namespace
}  // namespace mnemo::api
