# PHP-FPM 8.2 (Debian bookworm's) with WordPress: the recipe is ops/images/php/recipe.sh.
php_version=8.2
image_debian_suite=bookworm
. "$berth_images_dir/php/recipe.sh"
