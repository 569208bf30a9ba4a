# PHP-FPM 8.4 (Debian trixie's) with WordPress: the recipe is ops/images/php/recipe.sh.
php_version=8.4
image_debian_suite=trixie
. "$berth_images_dir/php/recipe.sh"
