// The in-memory B+-tree under OrderedIndex: entries sorted by a strict order `Less` in
// leaves of up to kLeafSlots entries, linked both ways for range walks; inner nodes hold
// separators. Wide nodes keep a lookup to a few cache-missing levels where a binary tree
// of a million entries takes twenty.
//
// Entries must be distinct under Less (OrderedIndex orders by key, then row). Less must
// also compare entries with probe types (lowerBound), both ways round, and own the
// separators: less.separator(e) makes one from an entry that may be erased later (a deep
// copy where entries point at data), less.release(sep) frees it.
//
// Deletion removes empty leaves and inner nodes but does not merge half-empty ones: an
// index that shrinks keeps some slack, in exchange for simple, fast changes.
//
// Inserts are cheap for keys that grow within ranges (TPC-C's order numbers per district):
// a split leaves the new entry last in its leaf, an insert tries the slot after a leaf's
// last entry first, and one that belongs in the previous insert's leaf skips the descent.
//
// Iterators are (leaf, slot) positions: any insert or erase may move entries, so a walk
// that changes the tree re-finds its place; version() tells it when.
#pragma once
#include <cassert>
#include <cstdint>
#include <utility>

namespace duet {

template <typename Entry, typename Less>
class BPlusTree {
  static constexpr uint32_t kLeafSlots = 32;
  static constexpr uint32_t kInnerSlots = 32;  // children per inner node

  struct Node {
    bool leaf;
    uint32_t count;  // entries (leaf) or children (inner)
  };
  struct Leaf : Node {
    Leaf* prev = nullptr;
    Leaf* next = nullptr;
    Entry entries[kLeafSlots];
  };
  struct Inner : Node {
    // child[i] holds entries e with separator[i-1] <= e < separator[i].
    Entry separators[kInnerSlots - 1];
    Node* children[kInnerSlots];
  };

 public:
  class Iterator {
   public:
    Iterator() = default;
    const Entry& operator*() const { return leaf_->entries[slot_]; }
    const Entry* operator->() const { return &leaf_->entries[slot_]; }
    bool operator==(const Iterator& o) const { return leaf_ == o.leaf_ && slot_ == o.slot_; }
    Iterator& operator++() {
      if (++slot_ == leaf_->count) {
        leaf_ = leaf_->next;
        slot_ = 0;
      }
      return *this;
    }

   private:
    friend class BPlusTree;
    Iterator(Leaf* leaf, uint32_t slot) : leaf_(leaf), slot_(slot) {}
    Leaf* leaf_ = nullptr;  // null: end()
    uint32_t slot_ = 0;
  };

  explicit BPlusTree(Less less) : less_(less) {}
  BPlusTree(const BPlusTree&) = delete;
  BPlusTree& operator=(const BPlusTree&) = delete;
  ~BPlusTree() { clear(); }

  size_t size() const { return size_; }
  // The bytes of its nodes (a walk over them: for size functions, not for hot paths).
  size_t nodeBytes() const { return root_ ? nodeBytes(root_) : 0; }
  uint64_t version() const { return version_; }
  // Only an empty tree has an empty leaf (its root).
  Iterator begin() const { return size_ ? Iterator(first_, 0) : end(); }
  Iterator end() const { return Iterator(); }
  // The entry before `it` (end(): the last one); begin() has none: returns end().
  Iterator prev(Iterator it) const {
    if (!it.leaf_) return size_ ? Iterator(last_, last_->count - 1) : end();
    if (it.slot_ > 0) return Iterator(it.leaf_, it.slot_ - 1);
    Leaf* p = it.leaf_->prev;
    return p ? Iterator(p, p->count - 1) : end();
  }

  // The first entry e with !less(e, probe).
  template <typename Probe>
  Iterator lowerBound(const Probe& probe) const {
    if (!root_) return end();
    Leaf* leaf = descend(probe, nullptr);
    uint32_t slot = leafLowerBound(leaf, probe);
    if (slot == leaf->count) return Iterator(leaf->next, 0);
    return Iterator(leaf, slot);
  }

  // Inserts e, which no entry may equal.
  void insert(const Entry& e) {
    if (!root_) makeRoot();
    Path path;
    Leaf* leaf = insertLeaf(e, path);
    insertInLeaf(path, leaf, insertSlot(leaf, e), e);
  }

  // Inserts e unless an entry right before or right after its place satisfies
  // `conflicts`; then returns false and changes nothing. A unique index's check: the one
  // entry with e's key, whatever its row, would be e's neighbour. One descent does both.
  template <typename Conflicts>
  bool insertUnlessNeighbour(const Entry& e, Conflicts conflicts) {
    if (!root_) makeRoot();
    Path path;
    Leaf* leaf = insertLeaf(e, path);
    uint32_t slot = insertSlot(leaf, e);
    // Only an empty root is an empty leaf, so a neighbouring leaf has entries.
    const Entry* before = slot > 0     ? &leaf->entries[slot - 1]
                          : leaf->prev ? &leaf->prev->entries[leaf->prev->count - 1]
                                       : nullptr;
    const Entry* after = slot < leaf->count ? &leaf->entries[slot] : leaf->next ? &leaf->next->entries[0] : nullptr;
    if ((before && conflicts(*before)) || (after && conflicts(*after))) return false;
    insertInLeaf(path, leaf, slot, e);
    return true;
  }

  // Removes the entry equal to e and returns it, or returns nothing when there is none.
  bool erase(const Entry& e, Entry* removed) {
    if (!root_) return false;
    Path path;
    Leaf* leaf = descend(e, &path);
    uint32_t slot = leafLowerBound(leaf, e);
    if (slot == leaf->count || less_(e, leaf->entries[slot])) return false;
    ++version_;
    --size_;
    *removed = leaf->entries[slot];
    for (uint32_t i = slot + 1; i < leaf->count; ++i) leaf->entries[i - 1] = leaf->entries[i];
    if (--leaf->count > 0 || leaf == root_) return true;
    hint_ = {};
    (leaf->prev ? leaf->prev->next : first_) = leaf->next;
    (leaf->next ? leaf->next->prev : last_) = leaf->prev;
    delete leaf;
    removeChild(path);
    return true;
  }

  template <typename F>
  void forEach(F f) const {
    for (Leaf* l = first_; l; l = l->next)
      for (uint32_t i = 0; i < l->count; ++i) f(l->entries[i]);
  }

  void clear() {
    hint_ = {};
    if (root_) destroy(root_);
    root_ = nullptr;
    first_ = last_ = nullptr;
    size_ = 0;
    ++version_;
  }

 private:
  static constexpr int kMaxDepth = 32;
  struct Path {
    Inner* node[kMaxDepth];
    uint32_t child[kMaxDepth];
    int depth = 0;
  };
  // The leaf of the last insert that descended, and the separators around it in the inner
  // nodes (null: unbounded), which hold while no node is split or removed: until then an
  // entry between them belongs in that leaf. Consecutive inserts into one leaf (the order
  // lines of one order) skip the descent.
  struct Hint {
    Leaf* leaf = nullptr;
    const Entry* low = nullptr;
    const Entry* high = nullptr;
  };

  // The leaf to insert e into, with the path to it when that was walked: the hint's leaf
  // when e belongs there and it has room (no split, which would need the path).
  Leaf* insertLeaf(const Entry& e, Path& path) {
    Leaf* hinted = hint_.leaf;
    if (hinted && hinted->count < kLeafSlots && !(hint_.low && less_(e, *hint_.low)) &&
        !(hint_.high && !less_(e, *hint_.high)))
      return hinted;
    Leaf* leaf = descend(e, &path);
    hint_ = {leaf, nullptr, nullptr};
    // The nearest separators left and right of the path bound the leaf: those further up
    // bound whole subtrees around them.
    for (int d = path.depth - 1; d >= 0 && !(hint_.low && hint_.high); --d) {
      Inner* in = path.node[d];
      uint32_t child = path.child[d];
      if (!hint_.low && child > 0) hint_.low = &in->separators[child - 1];
      if (!hint_.high && child + 1 < in->count) hint_.high = &in->separators[child];
    }
    return leaf;
  }

  static size_t nodeBytes(const Node* n) {
    if (n->leaf) return sizeof(Leaf);
    const auto* in = static_cast<const Inner*>(n);
    size_t bytes = sizeof(Inner);
    for (uint32_t i = 0; i < in->count; ++i) bytes += nodeBytes(in->children[i]);
    return bytes;
  }

  void makeRoot() {
    Leaf* leaf = new Leaf();
    leaf->leaf = true;
    leaf->count = 0;
    root_ = first_ = last_ = leaf;
  }

  // Puts e at `slot` of the leaf the path leads to, splitting the leaf when it is full;
  // the right part's first entry becomes the separator in the parent. An entry for the
  // left half splits the leaf in halves. One for the right half splits it at e's place,
  // e last on the left (first on a new right leaf when it goes after the last entry):
  // keys that grow within a range (order numbers of a district) then fill each leaf
  // instead of leaving a trail of half-empty ones, and the next such key is appended to
  // the left leaf instead of shifting the next range's entries in the right one.
  void insertInLeaf(Path& path, Leaf* leaf, uint32_t slot, const Entry& e) {
    ++version_;
    ++size_;
    if (leaf->count < kLeafSlots) {
      insertAt(leaf->entries, leaf->count, slot, e);
      ++leaf->count;
      return;
    }
    hint_ = {};  // the split moves separators and narrows the leaf
    Leaf* right = new Leaf();
    right->leaf = true;
    uint32_t half = kLeafSlots / 2;
    uint32_t split = slot <= half ? half : slot;
    right->count = kLeafSlots - split;
    for (uint32_t i = 0; i < right->count; ++i) right->entries[i] = leaf->entries[split + i];
    leaf->count = split;
    right->next = leaf->next;
    right->prev = leaf;
    (leaf->next ? leaf->next->prev : last_) = right;
    leaf->next = right;
    Leaf* target = slot < kLeafSlots ? leaf : right;
    insertAt(target->entries, target->count, slot - (target == leaf ? 0 : split), e);
    ++target->count;
    insertSeparator(path, less_.separator(right->entries[0]), right);
  }

  template <typename T>
  static void insertAt(T* items, uint32_t count, uint32_t at, const T& item) {
    for (uint32_t i = count; i > at; --i) items[i] = items[i - 1];
    items[at] = item;
  }

  // The leaf that holds x's place (x against separators: the child after every separator
  // not above x), recording the way down when asked.
  template <typename X>
  Leaf* descend(const X& x, Path* path) const {
    Node* n = root_;
    prefetchNode(n);
    while (!n->leaf) {
      auto* in = static_cast<Inner*>(n);
      uint32_t lo = 0, hi = in->count - 1;  // first separator above x
      while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (less_(x, in->separators[mid]))
          hi = mid;
        else
          lo = mid + 1;
      }
      if (path) {
        assert(path->depth < kMaxDepth);
        path->node[path->depth] = in;
        path->child[path->depth] = lo;
        ++path->depth;
      }
      n = in->children[lo];
      prefetchNode(n);
    }
    return static_cast<Leaf*>(n);
  }

  // Asks for a whole node at once before bisecting it: a bisection's probes are loads that
  // each depend on the last, so in a node not in cache they would miss one after another
  // (five lines of a leaf's twenty-one); prefetched, they wait about once.
  static void prefetchNode(const Node* n) {
    constexpr size_t kBytes = sizeof(Leaf) < sizeof(Inner) ? sizeof(Leaf) : sizeof(Inner);
    const char* p = reinterpret_cast<const char*>(n);
    for (size_t offset = 0; offset < kBytes; offset += 64) __builtin_prefetch(p + offset);
  }

  template <typename X>
  uint32_t leafLowerBound(const Leaf* leaf, const X& x) const {
    uint32_t lo = 0, hi = leaf->count;
    while (lo < hi) {
      uint32_t mid = (lo + hi) / 2;
      if (less_(leaf->entries[mid], x))
        lo = mid + 1;
      else
        hi = mid;
    }
    return lo;
  }

  // Where e goes in its leaf: after the last entry when it sorts after it (keys that grow
  // within a range append), else by bisection.
  uint32_t insertSlot(const Leaf* leaf, const Entry& e) const {
    uint32_t n = leaf->count;
    if (n > 0 && less_(leaf->entries[n - 1], e)) return n;
    return leafLowerBound(leaf, e);
  }

  // Enters `right` (whose entries are >= separator) just after the child the path's last
  // step went into, splitting full inner nodes upwards and growing a new root at the top.
  void insertSeparator(Path& path, Entry separator, Node* right) {
    while (path.depth > 0) {
      --path.depth;
      Inner* in = path.node[path.depth];
      uint32_t at = path.child[path.depth];  // right goes to child at + 1
      if (in->count < kInnerSlots) {
        insertAt(in->separators, in->count - 1, at, separator);
        insertAt(in->children, in->count, at + 1, right);
        ++in->count;
        return;
      }
      // Full: lay out the kInnerSlots + 1 children and kInnerSlots separators, then split.
      Entry seps[kInnerSlots];
      Node* kids[kInnerSlots + 1];
      for (uint32_t i = 0; i < kInnerSlots - 1; ++i) seps[i] = in->separators[i];
      for (uint32_t i = 0; i < kInnerSlots; ++i) kids[i] = in->children[i];
      insertAt(seps, kInnerSlots - 1, at, separator);
      insertAt(kids, kInnerSlots, at + 1, right);
      uint32_t leftKids = (kInnerSlots + 1) / 2;
      auto* sibling = new Inner();
      sibling->leaf = false;
      in->count = leftKids;
      sibling->count = kInnerSlots + 1 - leftKids;
      for (uint32_t i = 0; i < leftKids; ++i) in->children[i] = kids[i];
      for (uint32_t i = 0; i + 1 < leftKids; ++i) in->separators[i] = seps[i];
      for (uint32_t i = 0; i < sibling->count; ++i) sibling->children[i] = kids[leftKids + i];
      for (uint32_t i = 0; i + 1 < sibling->count; ++i) sibling->separators[i] = seps[leftKids + i];
      separator = seps[leftKids - 1];  // moves up: it divides the two halves
      right = sibling;
    }
    auto* root = new Inner();
    root->leaf = false;
    root->count = 2;
    root->children[0] = root_;
    root->children[1] = right;
    root->separators[0] = separator;
    root_ = root;
  }

  // Drops the child the path's last step went into (already freed), removing inner nodes
  // left without children and collapsing a root with one child.
  void removeChild(Path& path) {
    while (path.depth > 0) {
      --path.depth;
      Inner* in = path.node[path.depth];
      uint32_t at = path.child[path.depth];
      for (uint32_t i = at + 1; i < in->count; ++i) in->children[i - 1] = in->children[i];
      // The separator between the removed child and a neighbour goes with it.
      if (in->count >= 2) {
        uint32_t sep = at > 0 ? at - 1 : 0;
        less_.release(in->separators[sep]);
        for (uint32_t i = sep + 1; i + 1 < in->count; ++i) in->separators[i - 1] = in->separators[i];
      }
      if (--in->count > 0) break;
      if (in == root_) {
        root_ = nullptr;
        delete in;
        return;
      }
      delete in;
    }
    while (root_ && !root_->leaf && root_->count == 1) {
      Inner* old = static_cast<Inner*>(root_);
      root_ = old->children[0];
      delete old;
    }
    if (!root_) first_ = last_ = nullptr;
  }

  void destroy(Node* n) {
    if (n->leaf) {
      delete static_cast<Leaf*>(n);
      return;
    }
    auto* in = static_cast<Inner*>(n);
    for (uint32_t i = 0; i < in->count; ++i) destroy(in->children[i]);
    for (uint32_t i = 0; i + 1 < in->count; ++i) less_.release(in->separators[i]);
    delete in;
  }

  Less less_;
  Node* root_ = nullptr;
  Leaf* first_ = nullptr;
  Leaf* last_ = nullptr;
  Hint hint_;
  size_t size_ = 0;
  uint64_t version_ = 0;
};

}  // namespace duet
