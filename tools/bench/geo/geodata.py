"""The geo benchmark's world, generated deterministically: users, their habits and one million located
habit events over a realistic spread (most in and around dense cities, the rest over sparse countryside,
a few near the antimeridian and the poles), written by direct SQL into a migrated Hearth database.

The geohash is computed here as Hearth computes it (Sources/HearthDomain/Geo/Geohash.swift: halving
longitude and latitude alternately, `>=` the middle goes up); a difference would show as results the
R*Tree finds and the grid misses, which the benchmark refuses."""
import math
import random
import sqlite3

ALPHABET = "0123456789bcdefghjkmnpqrstuvwxyz"
STORED_PRECISION = 9
EARTH_RADIUS = 6_371_008.8

# (latitude, longitude, share of the city events, spread in km): cities of several sizes and latitudes.
CITIES = [
    (52.52, 13.40, 6, 12), (48.86, 2.35, 6, 10), (51.51, -0.13, 6, 14), (40.71, -74.01, 6, 12), (35.68, 139.69, 6, 15),
    (-33.87, 151.21, 4, 12), (-23.55, -46.63, 5, 14), (19.43, -99.13, 4, 12), (55.76, 37.62, 4, 12), (28.61, 77.21, 4, 14),
    (1.35, 103.82, 3, 8), (59.33, 18.07, 2, 8), (64.15, -21.94, 1, 5), (69.65, 18.96, 1, 4), (-36.85, 174.76, 2, 8),
    (-41.29, 174.78, 1, 5), (61.22, -149.90, 1, 6), (34.05, -118.24, 5, 18), (41.39, 2.17, 3, 8), (45.50, -73.57, 3, 9),
    (-34.60, -58.38, 3, 12), (30.04, 31.24, 3, 12), (6.52, 3.38, 3, 12), (-1.29, 36.82, 2, 8), (37.57, 126.98, 4, 12),
    (-17.73, 178.43, 1, 3), (64.84, -147.72, 1, 4), (78.22, 15.65, 1, 3), (47.37, 8.54, 2, 6), (50.08, 14.44, 2, 6),
]
# Regions of countryside (south, north, west, east) where the sparse rest falls, plus the far places.
COUNTRY = [(36, 60, -10, 30), (25, 50, -125, -70), (-40, -12, 115, 153), (-35, 5, -75, -35), (10, 35, 68, 90),
           (50, 70, 30, 140), (-35, 15, 10, 40), (60, 71, 5, 30)]
FAR = [(-20, 20, 179.5, 180), (-20, 20, -180, -179.5), (85, 90, -180, 180), (-90, -85, -180, 180)]


def typed_id(prefix, number):
    """A well-formed Hearth id (`<prefix>_<lowercase UUID>`, HearthDomain's GlobalID) numbered `number`:
    the API answers for ids of that form only."""
    return f"{prefix}_00000000-0000-4000-8000-{number:012x}"


def user_id(index):
    """The id of the benchmark's user `index`."""
    return typed_id("usr", index)


def geohash(latitude, longitude, precision=STORED_PRECISION):
    """The hash Hearth's Geohash.encode writes: longitude and latitude halved alternately, `>=` the
    middle taking the upper half."""
    ranges = [[-180.0, 180.0], [-90.0, 90.0]]
    values = [longitude, latitude]
    out = []
    bits = 0
    for bit in range(5 * precision):
        interval, value = ranges[bit % 2], values[bit % 2]
        middle = (interval[0] + interval[1]) / 2
        upper = value >= middle
        bits = bits << 1 | upper
        interval[0 if upper else 1] = middle
        if bit % 5 == 4:
            out.append(ALPHABET[bits])
            bits = 0
    return "".join(out)


def distance(lat1, lon1, lat2, lon2):
    """The haversine distance in metres, as Hearth's GreatCircle.distance computes it."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    h = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lon2 - lon1) / 2) ** 2
    return 2 * EARTH_RADIUS * math.asin(min(1.0, math.sqrt(h)))


def clamp_point(latitude, longitude):
    latitude = max(-90.0, min(90.0, latitude))
    while longitude > 180:
        longitude -= 360
    while longitude < -180:
        longitude += 360
    return latitude, longitude


def city_point(rng, city):
    latitude, longitude, _, spread = city
    # Dense centre and suburbs: the distance from the centre falls off like a Gaussian of `spread` km.
    north = rng.gauss(0, spread * 1000) / 111_195
    east = rng.gauss(0, spread * 1000) / (111_195 * max(math.cos(math.radians(latitude)), 0.01))
    return clamp_point(latitude + north, longitude + east)


def country_point(rng):
    south, north, west, east = rng.choice(FAR) if rng.random() < 0.02 else rng.choice(COUNTRY)
    # Uniform on the sphere within the box.
    latitude = math.degrees(math.asin(rng.uniform(math.sin(math.radians(south)), math.sin(math.radians(north)))))
    return clamp_point(latitude, rng.uniform(west, east))


def point(rng):
    """One event's place: 85 % in a city, by the cities' shares, 15 % in the countryside."""
    if rng.random() < 0.85:
        return city_point(rng, rng.choices(CITIES, weights=[c[2] for c in CITIES])[0])
    return country_point(rng)


def query_centres(count, seed=65):
    """Random centres of 5 km queries: three in four where people are (near a random event's place),
    the rest anywhere on the globe, a few across the antimeridian and near the poles."""
    rng = random.Random(seed)
    centres = []
    for index in range(count):
        kind = index % 8
        if kind < 6:
            centres.append(point(rng))
        elif kind == 6:
            centres.append(clamp_point(math.degrees(math.asin(rng.uniform(-1, 1))), rng.uniform(-180, 180)))
        else:
            centres.append(country_point(random.Random(rng.random())) if rng.random() < 0.5 else
                           (rng.uniform(-20, 20), rng.choice([179.99, -179.99])))
    return centres


def seed(database, events=1_000_000, users=10_000, seed_value=16, owners=()):
    """Writes `users` users (ids u00000…) with two habits each (one in five private) and `events` located
    events spread as `point` says, each user's events around one home city or the countryside, into the
    migrated database at `database`. `owners` (user ids already in the database) get the first users'
    share instead. Returns the list of user ids used."""
    rng = random.Random(seed_value)
    connection = sqlite3.connect(database)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=OFF")
    now = "2026-12-01T08:00:00.000Z"
    user_ids = list(owners) + [user_id(index) for index in range(users - len(owners))]
    with connection:
        connection.executemany(
            "INSERT INTO users (id, username, username_key, email, email_key, password_hash, display_name, created_at, updated_at) "
            "VALUES (?, ?, ?, ?, ?, '', ?, ?, ?)",
            [(uid, f"bench{index}", f"bench{index}", f"bench{index}@bench.invalid", f"bench{index}@bench.invalid", f"Bench {index}", now, now)
             for index, uid in enumerate(user_ids[len(owners):])])
        habits = []
        for index, uid in enumerate(user_ids):
            for number in range(2):
                visibility = "private" if (index * 2 + number) % 5 == 0 else "followers"
                habits.append((typed_id("hab", index * 2 + number), uid, f"Habit {number}", "2026-01-01", 127, visibility, now, now))
        connection.executemany(
            "INSERT INTO habits (id, user_id, title, starts_on, plan, visibility, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            habits)
        homes = {uid: rng.choices(CITIES, weights=[c[2] for c in CITIES])[0] if rng.random() < 0.85 else None for uid in user_ids}
        batch = []
        for number in range(events):
            uid = user_ids[number % len(user_ids)]
            home = homes[uid]
            latitude, longitude = (city_point(rng, home) if home and rng.random() < 0.9 else point(rng))
            day = 1 + number % 330
            recorded = f"2026-{1 + day // 30:02}-{1 + day % 28:02}T{number % 24:02}:00:00.000Z"
            batch.append((typed_id("hev", number), typed_id("hab", number % len(user_ids) * 2 + number % 2), uid, recorded[:10], recorded,
                          latitude, longitude, geohash(latitude, longitude), recorded, recorded))
            if len(batch) == 50_000:
                connection.executemany(
                    "INSERT INTO habit_events (id, habit_id, user_id, occurred_on, recorded_at, latitude, longitude, geohash, "
                    "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", batch)
                batch = []
        if batch:
            connection.executemany(
                "INSERT INTO habit_events (id, habit_id, user_id, occurred_on, recorded_at, latitude, longitude, geohash, "
                "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", batch)
    connection.close()
    return user_ids
