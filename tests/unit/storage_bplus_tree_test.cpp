// The B+-tree under ordered indexes, against std::set: random inserts and erases that
// split and empty leaves and inner nodes, walks both ways, lower bounds, and separators
// (which the tree must release exactly once each).
#include <catch2/catch.hpp>

#include <random>
#include <set>
#include <vector>

#include "engine/storage/bplus_tree.h"

using namespace duet;

namespace {

struct Item {
  int key;
  int* owner;  // separators: a counter of live separator copies; entries: null
};

struct ItemLess {
  int* liveSeparators;
  bool operator()(const Item& a, const Item& b) const { return a.key < b.key; }
  bool operator()(const Item& a, int b) const { return a.key < b; }
  bool operator()(int a, const Item& b) const { return a < b.key; }
  Item separator(const Item& e) const {
    ++*liveSeparators;
    return Item{e.key, liveSeparators};
  }
  void release(const Item& sep) const {
    REQUIRE(sep.owner == liveSeparators);
    --*liveSeparators;
  }
};

using Tree = BPlusTree<Item, ItemLess>;

std::vector<int> forward(const Tree& t) {
  std::vector<int> out;
  for (auto it = t.begin(); it != t.end(); ++it) out.push_back(it->key);
  return out;
}

std::vector<int> backward(const Tree& t) {
  std::vector<int> out;
  for (auto it = t.prev(t.end()); it != t.end(); it = it == t.begin() ? t.end() : t.prev(it)) out.push_back(it->key);
  return out;
}

}  // namespace

TEST_CASE("B+-tree matches std::set through growth and shrinkage", "[storage][btree]") {
  int live = 0;
  {
    Tree tree(ItemLess{&live});
    std::set<int> model;
    std::mt19937 rng(11);
    CHECK(tree.begin() == tree.end());
    CHECK(tree.prev(tree.end()) == tree.end());
    // Phases: grow to ~20000 (many inner splits), churn, then drain to empty and refill.
    auto step = [&](int insertPercent, int range) {
      int k = static_cast<int>(rng() % range);
      Item removed{};
      if (static_cast<int>(rng() % 100) < insertPercent) {
        if (model.insert(k).second) tree.insert(Item{k, nullptr});
      } else {
        bool had = model.erase(k) > 0;
        CHECK(tree.erase(Item{k, nullptr}, &removed) == had);
        if (had) CHECK(removed.key == k);
      }
    };
    auto verify = [&] {
      REQUIRE(tree.size() == model.size());
      std::vector<int> want(model.begin(), model.end());
      REQUIRE(forward(tree) == want);
      std::vector<int> back(want.rbegin(), want.rend());
      REQUIRE(backward(tree) == back);
      for (int i = 0; i < 200; ++i) {
        int p = static_cast<int>(rng() % 60000) - 1000;
        auto mine = tree.lowerBound(p);
        auto theirs = model.lower_bound(p);
        if (theirs == model.end())
          REQUIRE(mine == tree.end());
        else
          REQUIRE((mine != tree.end() && mine->key == *theirs));
      }
    };
    for (int i = 0; i < 30000; ++i) step(90, 50000);
    verify();
    for (int i = 0; i < 30000; ++i) step(50, 50000);
    verify();
    for (int i = 0; i < 200000 && !model.empty(); ++i) step(5, 50000);
    for (int k : std::vector<int>(model.begin(), model.end())) {
      Item removed{};
      CHECK(tree.erase(Item{k, nullptr}, &removed));
      model.erase(k);
    }
    verify();
    CHECK(live == 0);  // an empty tree holds no separators
    // Ascending and descending insertion orders (appends split the rightmost leaf).
    for (int k = 0; k < 5000; ++k) {
      tree.insert(Item{k, nullptr});
      model.insert(k);
    }
    for (int k = -1; k > -5000; --k) {
      tree.insert(Item{k, nullptr});
      model.insert(k);
    }
    verify();
    // A version change on every change, none on lookups.
    uint64_t v = tree.version();
    tree.lowerBound(3);
    CHECK(tree.version() == v);
    tree.insert(Item{100000, nullptr});
    CHECK(tree.version() != v);
  }
  CHECK(live == 0);  // the destructor released the rest
}

TEST_CASE("B+-tree insertUnlessNeighbour refuses a second entry of a group", "[storage][btree]") {
  // Entries are (group, member) as group * 64 + member, as a unique index orders (key,
  // row): the one entry of a group must be found next to any other member's place, also
  // across leaf boundaries.
  int live = 0;
  Tree tree(ItemLess{&live});
  std::set<int> model;
  std::set<int> groups;
  std::mt19937 rng(5);
  for (int i = 0; i < 40000; ++i) {
    int group = static_cast<int>(rng() % 3000), member = static_cast<int>(rng() % 64);
    int k = group * 64 + member;
    if (rng() % 4 == 0) {  // erase a random present entry of the group, if any
      auto it = model.lower_bound(group * 64);
      if (it != model.end() && *it / 64 == group) {
        Item removed{};
        REQUIRE(tree.erase(Item{*it, nullptr}, &removed));
        model.erase(it);
        groups.erase(group);
      }
      continue;
    }
    bool inserted =
        tree.insertUnlessNeighbour(Item{k, nullptr}, [&](const Item& other) { return other.key / 64 == group; });
    REQUIRE(inserted == (groups.count(group) == 0));
    if (inserted) {
      model.insert(k);
      groups.insert(group);
    }
  }
  REQUIRE(forward(tree) == std::vector<int>(model.begin(), model.end()));
}

TEST_CASE("B+-tree with keys growing within interleaved ranges", "[storage][btree]") {
  // TPC-C's order numbers: each of 10 districts loaded in turn, then new orders appended
  // to every district's range round-robin, so that inserts land at the end of one range
  // in a leaf whose later entries belong to the next; then the oldest of each district
  // deleted (Delivery), and runs of consecutive keys per district. Every leaf split of an
  // insert into a leaf's right half is taken, and every use of the insert hint.
  int live = 0;
  {
    Tree tree(ItemLess{&live});
    std::set<int> model;
    constexpr int kDistricts = 10, kStride = 1 << 20;
    auto add = [&](int d, int n) {
      tree.insert(Item{d * kStride + n, nullptr});
      model.insert(d * kStride + n);
    };
    auto verify = [&] {
      REQUIRE(tree.size() == model.size());
      std::vector<int> want(model.begin(), model.end());
      REQUIRE(forward(tree) == want);
      REQUIRE(backward(tree) == std::vector<int>(want.rbegin(), want.rend()));
      for (int d = 0; d <= kDistricts; ++d)
        for (int n : {-1, 0, 1, 500, 2999, 3000, 5000}) {
          auto mine = tree.lowerBound(d * kStride + n);
          auto theirs = model.lower_bound(d * kStride + n);
          if (theirs == model.end())
            REQUIRE(mine == tree.end());
          else
            REQUIRE((mine != tree.end() && mine->key == *theirs));
        }
    };
    for (int d = 0; d < kDistricts; ++d)
      for (int n = 0; n < 3000; ++n) add(d, n);
    for (int n = 3000; n < 5000; ++n)
      for (int d = 0; d < kDistricts; ++d) add(d, n);
    verify();
    // Runs of consecutive keys into one district (the order lines of one order), in a
    // random district each time: the insert hint's leaf, then another leaf, splits between.
    std::mt19937 rng(9);
    std::vector<int> next(kDistricts, 5000);
    for (int order = 0; order < 3000; ++order) {
      int d = static_cast<int>(rng() % kDistricts);
      for (int line = 0; line < 10; ++line) add(d, next[d]++);
    }
    verify();
    for (int n = 0; n < 2500; ++n)
      for (int d = 0; d < kDistricts; ++d) {
        Item removed{};
        REQUIRE(tree.erase(Item{d * kStride + n, nullptr}, &removed));
        model.erase(d * kStride + n);
      }
    for (int order = 0; order < 1000; ++order) {
      int d = static_cast<int>(rng() % kDistricts);
      for (int line = 0; line < 10; ++line) add(d, next[d]++);
      // Deleting a whole run (Delivery) empties and removes leaves between inserts.
      if (order % 3 == 0) {
        for (int line = 0; line < 40; ++line) {
          int k = *model.lower_bound(d * kStride);
          Item removed{};
          REQUIRE(tree.erase(Item{k, nullptr}, &removed));
          model.erase(k);
        }
      }
    }
    verify();
    // Below every district's entries, in descending district order.
    for (int n = 0; n < 500; ++n)
      for (int d = kDistricts - 1; d >= 0; --d) add(d, -n - 1);
    verify();
  }
  CHECK(live == 0);
}
