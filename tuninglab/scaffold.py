"""`tuninglab init DIR`: a workspace of your own, with an example app and three recipes.

The example (the package's ``example/`` folder) is a complete app of the kind a user brings:
a web application with its own data source (created by its server set-up, ``setup.cli``), its
own database with a schema and data (``database/``, baked into a database image once), and a
k6 script that imports the lab's summary contract. Its three recipes change only the server
or the JVM, so they hold for any app. The README written beside them says how to run them
and how to put your own app in the example's place.
"""
from __future__ import annotations

import shutil
from pathlib import Path

__all__ = ["EXAMPLE", "InitError", "init"]

EXAMPLE = Path(__file__).with_name("example")


class InitError(ValueError):
    """The folder cannot become a workspace (it holds files already): nothing was written."""


README = """# A Tuning Lab workspace

Made by `tuninglab init`. It holds what you measure; the lab (its images, its engine) stays
where it is installed.

- `apps/shop/`: an example application under test. Its `app.toml` explains every key.
- `recipes/own/`: three recipes that run on it: `shop-pool-size` (the data-source pool),
  `shop-task-threads` (WildFly's io worker) and `shop-parallel-collector` (the JVM's collector).
- `results/`: what the runs store, one JSON file per run.

## Run

    tuninglab --workspace {folder} app check shop             # boots one node, smoke-tests the app
    tuninglab --workspace {folder} run shop-task-threads      # the quick profile: proves it runs
    tuninglab --workspace {folder} run shop-task-threads --profile full --allow-dirty

(or `export TUNINGLAB_WORKSPACE={folder}` once and leave out `--workspace`). A full run
stores its result in `results/`; `tuninglab --workspace {folder} show shop-task-threads`
prints it again.

## Your own application

1. Copy `apps/shop/` to `apps/<yours>/` and edit its `app.toml`: `webapp` is the path of your
   WAR or EAR file (or a folder of it), `context_root` the path it answers under.
2. `setup.cli`: what your app expects of the server (data sources, JMS destinations, system
   properties) as jboss-cli `add` and `write-attribute` lines. The database host is `db`.
3. `database/`: your schema and data as SQL files, listed in `seed` in the order to load them.
4. `workload.js`: one branch per transaction of yours, each with a check of its answer; the
   transaction names are the keys of `[mixes]`.
5. `tuninglab --workspace {folder} app check <yours>`, then point the recipes' `[workload] app`
   at it (and `ShopDS` in `recipes/own/shop-pool-size/*.cli` at your data source).
"""


def init(folder: Path) -> list[Path]:
    """Write the example workspace into ``folder`` (created; it may exist if empty); returns
    the files written. InitError when the folder holds anything already."""
    folder = Path(folder)
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise InitError(f"{folder}: {'is not a folder' if not folder.is_dir() else 'is not empty'}; "
                        f"allowed: a new or empty folder (init writes recipes/, apps/, "
                        f"results/ and README.md into it)")
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copytree(EXAMPLE, folder, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("__pycache__"))
    (folder / "results").mkdir(exist_ok=True)
    (folder / "README.md").write_text(README.format(folder=folder), encoding="utf-8")
    return sorted(p for p in folder.rglob("*") if p.is_file())
